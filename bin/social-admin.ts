import fs from 'node:fs';
import path from 'node:path';
import { GetQueueUrlCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentClient, type TableRef } from '../shared/adapters/dynamodb/client';
import { DynamoAccountStore } from '../shared/adapters/dynamodb/accounts';
import { DynamoKeyStore } from '../shared/adapters/dynamodb/api-keys';
import { sqsClient } from '../shared/adapters/aws/sqs-queue';
import { s3Client } from '../shared/adapters/aws/s3-blobs';
import { PLANS, type PlanName } from '../shared/domain/plans';
import { accountItems, deleteAccount, exportAccount, replayDlq } from '../infra/admin/account-data';

/**
 * `social-admin`: operator commands against a stage's table, bucket and queues (AWS credentials of the account),
 * or against the local runtime (`--local [--data-dir DIR]`, which reads DIR/runtime.json written by `npm start`).
 */
export const ADMIN_HELP = `social-admin — operator commands

Target: --local [--data-dir DIR]              the local runtime (DIR default: DATA_DIR or .data)
        --stage S --table T --bucket B [--region R]   a deployed stage (outputs TableName and MediaBucketName of
                                                       SocialPublishing-S-Data; queues found by name)

  find <email | acc_…>                      the account: plan, brands, keys, connections
  set-plan <email | acc_…> <plan>           set the plan without billing (${Object.keys(PLANS).join(', ')})
  revoke-keys <email | acc_…> [--key key_…] revoke every active key (or one)
  replay-dlq <queue> [--max N]              move a DLQ's messages back to its queue (publish, webhooks)
  export <email | acc_…> [--out FILE]       the account's data as JSON (no hashes or encrypted secrets)
  delete <email | acc_…> --yes              delete the account, all its items and its media objects

Exit codes: 0 ok, 2 usage, 5 not found, 1 anything else.
`;

export interface AdminIo { out: (t: string) => void; err: (t: string) => void; env: Record<string, string | undefined> }

interface Target { doc: DynamoDBDocumentClient; table: string; s3: S3Client; bucket: string; sqs: SQSClient; queueUrls: (queue: string) => Promise<{ url: string; dlqUrl: string }> }

class UsageError extends Error {}
class NotFound extends Error {}

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[i + 1] : undefined;
}

function target(argv: string[], env: AdminIo['env']): Target {
  if (argv.includes('--local')) {
    const dir = option(argv, 'data-dir') ?? env.DATA_DIR ?? '.data';
    const file = path.join(dir, 'runtime.json');
    if (!fs.existsSync(file)) throw new UsageError(`${file} not found: start the local runtime (npm start) with that data dir`);
    const rt = JSON.parse(fs.readFileSync(file, 'utf8')) as { region: string; table: string; bucket: string; dynamodb: string; s3: string; sqs: string; queues: Record<string, { url: string; dlqUrl: string }> };
    return {
      doc: documentClient({ region: rt.region, endpoint: rt.dynamodb }), table: rt.table,
      s3: s3Client({ region: rt.region, endpoint: rt.s3 }), bucket: rt.bucket,
      sqs: sqsClient({ region: rt.region, endpoint: rt.sqs }),
      queueUrls: async (q) => { const u = rt.queues[q]; if (!u) throw new UsageError(`unknown queue ${q} (${Object.keys(rt.queues).join(', ')})`); return u; },
    };
  }
  const stage = option(argv, 'stage');
  const table = option(argv, 'table') ?? env.TABLE_NAME;
  const bucket = option(argv, 'bucket') ?? env.MEDIA_BUCKET;
  if (!stage || !table || !bucket) throw new UsageError('give --local, or --stage with --table and --bucket (the Data stack outputs)');
  const region = option(argv, 'region') ?? env.AWS_REGION ?? 'us-east-1';
  const sqs = sqsClient({ region });
  const url = async (name: string) => (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl!;
  return {
    doc: documentClient({ region }), table, s3: s3Client({ region }), bucket, sqs,
    queueUrls: async (q) => ({ url: await url(`SocialPublishing-${stage}-${q}`), dlqUrl: await url(`SocialPublishing-${stage}-${q}-dlq`) }),
  };
}

async function accountId(t: Target, who: string | undefined): Promise<string> {
  if (!who) throw new UsageError('name the account: its email or its id (acc_…)');
  const accounts = new DynamoAccountStore({ doc: t.doc, tableName: t.table } satisfies TableRef);
  const id = who.startsWith('acc_') ? who : await accounts.findIdByEmail(who.toLowerCase());
  if (!id || !(await accounts.get(id))) throw new NotFound(`no account ${who}`);
  return id;
}

async function command(argv: string[], io: AdminIo): Promise<number> {
  const positional = argv.filter((a, i) => !a.startsWith('--') && !(i > 0 && argv[i - 1].startsWith('--') && !['--local', '--yes'].includes(argv[i - 1])));
  const [cmd, who, extra] = positional;
  if (!cmd || cmd === 'help') { io.out(ADMIN_HELP); return cmd ? 0 : 2; }
  const t = target(argv, io.env);
  const ref: TableRef = { doc: t.doc, tableName: t.table };
  switch (cmd) {
    case 'find': {
      const id = await accountId(t, who);
      const account = (await new DynamoAccountStore(ref).get(id))!;
      const items = await accountItems(t.doc, t.table, id);
      const count = (pred: (i: Record<string, unknown>) => boolean) => items.filter(pred).length;
      const keys = await new DynamoKeyStore(ref).listByAccount(id);
      io.out(JSON.stringify({
        ...account,
        brands: count((i) => String(i.sk).startsWith('BRAND#')), connections: count((i) => String(i.sk).startsWith('CON#')),
        posts: count((i) => String(i.pk).startsWith('POST#') && i.sk === 'POST'), webhooks: count((i) => String(i.sk).startsWith('WEBHOOK#')),
        keys: keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, created_at: k.created_at, revoked_at: k.revoked_at ?? null })),
      }, null, 2) + '\n');
      return 0;
    }
    case 'set-plan': {
      if (!extra || !(extra in PLANS)) throw new UsageError(`set-plan needs a plan: ${Object.keys(PLANS).join(', ')}`);
      const id = await accountId(t, who);
      await new DynamoAccountStore(ref).setPlan(id, extra as PlanName);
      io.out(`${id}: plan ${extra}\n`);
      return 0;
    }
    case 'revoke-keys': {
      const id = await accountId(t, who);
      const store = new DynamoKeyStore(ref);
      const only = option(argv, 'key');
      const keys = (await store.listByAccount(id)).filter((k) => !k.revoked_at && (!only || k.id === only));
      if (only && keys.length === 0) throw new NotFound(`no active key ${only} on ${id}`);
      const at = new Date().toISOString();
      for (const k of keys) await store.revoke(id, k.id, at);
      io.out(`${id}: revoked ${keys.length} key(s)${keys.length ? `: ${keys.map((k) => k.id).join(', ')}` : ''}\n`);
      return 0;
    }
    case 'replay-dlq': {
      if (!who) throw new UsageError('replay-dlq needs the queue: publish or webhooks');
      const { url, dlqUrl } = await t.queueUrls(who);
      const moved = await replayDlq(t.sqs, dlqUrl, url, Number(option(argv, 'max') ?? 1000));
      io.out(`moved ${moved} message(s) from the ${who} DLQ back to its queue\n`);
      return 0;
    }
    case 'export': {
      const id = await accountId(t, who);
      const data = await exportAccount(t.doc, t.table, t.s3, t.bucket, id);
      const text = JSON.stringify(data, null, 2) + '\n';
      const out = option(argv, 'out');
      if (out) { fs.writeFileSync(out, text); io.err(`wrote ${out} (${data?.exported_items ?? 0} items)\n`); } else io.out(text);
      return 0;
    }
    case 'delete': {
      const id = await accountId(t, who);
      if (!argv.includes('--yes')) throw new UsageError(`delete removes ${id} and everything it owns for good: add --yes`);
      const res = await deleteAccount(t.doc, t.table, t.s3, t.bucket, id);
      io.out(`${id}: deleted ${res.items} item(s) and ${res.objects} media object(s)\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command ${cmd} (see social-admin help)`);
  }
}

/** Runs the admin CLI; answers the exit code. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  try {
    return await command(argv, io);
  } catch (err) {
    if (err instanceof UsageError) { io.err(`social-admin: ${err.message}\n`); return 2; }
    if (err instanceof NotFound) { io.err(`social-admin: ${err.message}\n`); return 5; }
    io.err(`social-admin: ${(err as Error)?.message ?? String(err)}\n`);
    return 1;
  }
}

if (require.main === module) {
  runAdmin(process.argv.slice(2), { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), env: process.env })
    .then((code) => { process.exitCode = code; });
}
