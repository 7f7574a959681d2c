import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { createSocialClient, SocialApiError, unwrap, type ErrorClass, type SocialClient } from '../shared/client/index';
import { checkWebhook } from '../shared/webhooks/verify';

/**
 * `social`: the command line for API users, on the typed client (shared/client). See `social help`.
 * Key and base URL: --key / --base-url, else SOCIAL_API_KEY / SOCIAL_BASE_URL, else the config file
 * (SOCIAL_CONFIG, default ~/.config/social/config.json: {"base_url": "...", "api_key": "..."}).
 */
export const EXIT: Record<'ok' | 'unexpected' | 'usage' | ErrorClass | 'partial', number> = {
  ok: 0, unexpected: 1, usage: 2, auth: 3, invalid: 4, not_found: 5, conflict: 6, rate_limited: 7, server: 8, network: 9, partial: 10,
};

export const HELP = `social — publish through the Social Publishing API

Usage: social [--base-url URL] [--key KEY] [--json] <command> ...

  post --to telegram,bluesky [--brand ID] [--title T] [--photo URL] [--video URL] [--idempotency-key K] "text"
  schedule --to NETWORKS --at <ISO 8601 with offset | next_slot> [--brand ID] "text"
  schedule --csv FILE [--chunk N]      bulk-schedule a CSV (header row + rows), N rows per request (default 100)
  schedule list [--status S]           scheduled posts
  schedule cancel ID
  status POST_ID                       a post and each network's result
  status --platform NETWORK --id ID    by a network's own post id
  brands | brands create NAME
  keys | keys create [NAME] | keys revoke ID
  webhooks verify --secret S --signature HEADER [--body-file F] [--tolerance SECONDS]   (body from stdin by default)

Exit codes: 0 ok, 2 usage, 3 auth (401/403), 4 invalid input (4xx), 5 not found (404/410), 6 conflict (409),
7 rate limited (429), 8 server error (5xx), 9 API unreachable, 10 some networks failed, 1 anything else.
`;

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
  readStdin?: () => Promise<string>;
  fetch?: typeof fetch;
}

class UsageError extends Error {}

interface Parsed { flags: Record<string, string | true>; args: string[] }

const BOOLEAN_FLAGS = new Set(['json', 'help']);

export function parseArgs(argv: string[]): Parsed {
  const flags: Record<string, string | true> = {};
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { args.push(...argv.slice(i + 1)); break; }
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (inline !== undefined) flags[name] = inline;
      else if (BOOLEAN_FLAGS.has(name)) flags[name] = true;
      else {
        const v = argv[i + 1];
        if (v === undefined) throw new UsageError(`--${name} needs a value`);
        flags[name] = v;
        i++;
      }
    } else args.push(a);
  }
  return { flags, args };
}

/** Settings from flags, environment and the config file, in that order. */
export function settings(flags: Parsed['flags'], env: Io['env']): { baseUrl?: string; apiKey?: string } {
  const file = env.SOCIAL_CONFIG ?? path.join(env.HOME ?? os.homedir(), '.config', 'social', 'config.json');
  let cfg: { base_url?: string; api_key?: string } = {};
  if (fs.existsSync(file)) {
    try { cfg = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof cfg; } catch { throw new UsageError(`${file} is not valid JSON`); }
  }
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  return {
    baseUrl: str(flags['base-url']) ?? str(env.SOCIAL_BASE_URL) ?? str(cfg.base_url),
    apiKey: str(flags.key) ?? str(env.SOCIAL_API_KEY) ?? str(cfg.api_key),
  };
}

const flag = (p: Parsed, name: string): string | undefined => (typeof p.flags[name] === 'string' ? (p.flags[name] as string) : undefined);
const networks = (p: Parsed): string[] => {
  const to = flag(p, 'to');
  if (!to) throw new UsageError('--to is required: a comma-separated list of networks, e.g. --to telegram,bluesky');
  return to.split(',').map((s) => s.trim()).filter(Boolean);
};
const textOf = (p: Parsed, from: number): string => {
  const text = p.args.slice(from).join(' ');
  if (!text) throw new UsageError('the post text is missing');
  return text;
};

interface Result { platform: string; ok: boolean; status: string; url?: string | null; code?: string | null; error?: string | null }

function printResults(io: Io, results: Result[]): number {
  for (const r of results) {
    io.out(r.ok ? `✓ ${r.platform.padEnd(10)} ${r.status}${r.url ? `  ${r.url}` : ''}\n` : `✗ ${r.platform.padEnd(10)} ${r.status} ${r.code ?? ''}: ${r.error ?? ''}\n`);
  }
  return results.every((r) => r.ok) ? EXIT.ok : EXIT.partial;
}

/** Splits a CSV into its header and data records (raw text, quoting kept) for chunked upload. */
export function csvChunks(text: string, size: number): { header: string; chunks: string[][] } {
  const records = parse(text, { raw: true, skip_empty_lines: true, relax_column_count: true }) as unknown as Array<{ raw: string }>;
  if (records.length < 2) throw new UsageError('the CSV needs a header row and at least one row');
  const [header, ...rows] = records.map((r) => r.raw.replace(/\r?\n$/, ''));
  const chunks: string[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return { header, chunks };
}

async function bulk(api: SocialClient, io: Io, p: Parsed, json: boolean): Promise<number> {
  const file = flag(p, 'csv')!;
  const size = Number(flag(p, 'chunk') ?? 100);
  if (!Number.isInteger(size) || size < 1 || size > 500) throw new UsageError('--chunk must be a whole number from 1 to 500');
  const { header, chunks } = csvChunks(fs.readFileSync(file, 'utf8'), size);
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const report = { total, accepted: 0, rejected: 0, scheduled: [] as unknown[], errors: [] as Array<Record<string, unknown>> };
  let done = 0;
  for (const chunk of chunks) {
    const res = await unwrap(api.POST('/api/bulk', {
      body: [header, ...chunk].join('\n') + '\n' as never,
      bodySerializer: (b: unknown) => b as string,
      headers: { 'content-type': 'text/csv' },
    }));
    const offset = done;
    report.accepted += res.accepted;
    report.rejected += res.rejected;
    report.scheduled.push(...res.scheduled.map((s) => ({ ...s, row: s.row + offset })));
    report.errors.push(...res.errors.map((e) => ({ ...e, row: e.row + offset })));
    done += chunk.length;
    io.err(`rows ${offset + 1}-${done} of ${total}: ${report.accepted} accepted, ${report.rejected} rejected so far\n`);
  }
  if (json) io.out(JSON.stringify(report, null, 2) + '\n');
  else {
    io.out(`${report.accepted} of ${total} rows scheduled, ${report.rejected} rejected\n`);
    for (const e of report.errors) io.out(`  row ${e.row}: ${e.code}: ${e.error}\n`);
  }
  return report.rejected === 0 ? EXIT.ok : EXIT.partial;
}

async function readBody(p: Parsed, io: Io): Promise<string> {
  const file = flag(p, 'body-file');
  if (file) return fs.readFileSync(file, 'utf8');
  if (!io.readStdin) throw new UsageError('give the raw body with --body-file');
  return io.readStdin();
}

async function command(p: Parsed, io: Io): Promise<number> {
  const json = p.flags.json === true;
  const [cmd, sub] = p.args;
  if (!cmd || cmd === 'help' || p.flags.help) { io.out(HELP); return cmd || p.flags.help ? EXIT.ok : EXIT.usage; }

  if (cmd === 'webhooks') {
    if (sub !== 'verify') throw new UsageError('webhooks: the only subcommand is verify');
    const secret = flag(p, 'secret') ?? io.env.SOCIAL_WEBHOOK_SECRET;
    const signature = flag(p, 'signature');
    if (!secret || !signature) throw new UsageError('webhooks verify needs --secret (or SOCIAL_WEBHOOK_SECRET) and --signature (the Service-Signature header)');
    const body = await readBody(p, io);
    const tolerance = flag(p, 'tolerance');
    const res = checkWebhook(body, signature, secret, tolerance ? { toleranceSeconds: Number(tolerance) } : {});
    if (json) io.out(JSON.stringify(res) + '\n');
    else io.out(res.ok ? `valid signature (signed at ${new Date(res.timestamp * 1000).toISOString()})\n` : `invalid: ${res.reason}\n`);
    return res.ok ? EXIT.ok : EXIT.invalid;
  }

  const { baseUrl, apiKey } = settings(p.flags, io.env);
  if (!baseUrl) throw new UsageError('no API address: pass --base-url, set SOCIAL_BASE_URL, or put base_url in the config file');
  if (!apiKey) throw new UsageError('no API key: pass --key, set SOCIAL_API_KEY, or put api_key in the config file');
  const api = createSocialClient({ baseUrl, apiKey, ...(io.fetch ? { fetch: io.fetch } : {}) });
  const print = (data: unknown, human: () => void) => { if (json) io.out(JSON.stringify(data, null, 2) + '\n'); else human(); };

  switch (cmd) {
    case 'post': {
      const body = {
        platforms: networks(p), text: textOf(p, 1),
        ...(flag(p, 'brand') ? { brand_id: flag(p, 'brand') } : {}), ...(flag(p, 'title') ? { title: flag(p, 'title') } : {}),
        ...(flag(p, 'photo') ? { photo_url: flag(p, 'photo') } : {}), ...(flag(p, 'video') ? { video_url: flag(p, 'video') } : {}),
        ...(flag(p, 'idempotency-key') ? { idempotency_key: flag(p, 'idempotency-key') } : {}),
      };
      const res = await unwrap(api.POST('/api/post', { body }));
      const results = res.results as Result[];
      if (json) { io.out(JSON.stringify(res, null, 2) + '\n'); return results.every((r) => r.ok) ? EXIT.ok : EXIT.partial; }
      io.out(`post ${res.post_id}\n`);
      return printResults(io, results);
    }
    case 'schedule': {
      if (flag(p, 'csv')) return bulk(api, io, p, json);
      if (sub === 'list') {
        const status = flag(p, 'status');
        const res = await unwrap(api.GET('/api/schedule', { params: { query: (status ? { status } : {}) as never } }));
        print(res, () => {
          for (const s of res.schedules) io.out(`${s.schedule_id}  ${s.run_at}  ${s.status.padEnd(10)} ${s.platforms.join(',')}\n`);
          if (res.schedules.length === 0) io.out('no scheduled posts\n');
        });
        return EXIT.ok;
      }
      if (sub === 'cancel') {
        const id = p.args[2];
        if (!id) throw new UsageError('schedule cancel needs the schedule id');
        const res = await unwrap(api.DELETE('/api/schedule/{id}', { params: { path: { id } } }));
        print(res, () => io.out(`${res.schedule_id} ${res.status}\n`));
        return EXIT.ok;
      }
      const at = flag(p, 'at');
      if (!at) throw new UsageError('schedule needs --at <ISO 8601 time with offset | next_slot> (or --csv FILE)');
      const res = await unwrap(api.POST('/api/schedule', {
        body: { platforms: networks(p), text: textOf(p, 1), run_at: at, ...(flag(p, 'brand') ? { brand_id: flag(p, 'brand') } : {}) } as never,
      }));
      print(res, () => io.out(`scheduled ${res.schedule_id} for ${res.run_at} (${res.platforms.join(', ')})\n`));
      return EXIT.ok;
    }
    case 'status': {
      const platform = flag(p, 'platform');
      if (platform) {
        const id = flag(p, 'id');
        if (!id) throw new UsageError('status --platform needs --id (the network\'s post id or ours)');
        const res = await unwrap(api.GET('/api/post/status', { params: { query: { platform, id } } }));
        print(res, () => io.out(`${res.platform} ${res.id}: ${res.status} (post ${res.post_id})\n`));
        return EXIT.ok;
      }
      if (!sub) throw new UsageError('status needs a post id (pst_…) or --platform and --id');
      const res = await unwrap(api.GET('/api/posts/{id}', { params: { path: { id: sub } } }));
      if (json) { print(res, () => undefined); return EXIT.ok; }
      io.out(`post ${res.id} (${res.created_at})\n`);
      printResults(io, res.results as Result[]);
      return EXIT.ok;
    }
    case 'brands': {
      if (sub === 'create') {
        const name = p.args.slice(2).join(' ');
        if (!name) throw new UsageError('brands create needs a name');
        const res = await unwrap(api.POST('/api/brands', { body: { name } }));
        print(res, () => io.out(`created ${res.brand.id} ${res.brand.name}\n`));
        return EXIT.ok;
      }
      const res = await unwrap(api.GET('/api/brands'));
      print(res, () => { for (const b of res.brands) io.out(`${b.id}  ${b.name}\n`); });
      return EXIT.ok;
    }
    case 'keys': {
      if (sub === 'create') {
        const name = p.args.slice(2).join(' ');
        const res = await unwrap(api.POST('/api/keys', { body: name ? { name } : {} }));
        print(res, () => io.out(`created ${res.id} (shown once): ${res.api_key}\n`));
        return EXIT.ok;
      }
      if (sub === 'revoke') {
        const id = p.args[2];
        if (!id) throw new UsageError('keys revoke needs the key id');
        const res = await unwrap(api.DELETE('/api/keys/{id}', { params: { path: { id } } }));
        print(res, () => io.out(`revoked ${res.id} at ${res.revoked_at}\n`));
        return EXIT.ok;
      }
      const res = await unwrap(api.GET('/api/keys'));
      print(res, () => { for (const k of res.keys) io.out(`${k.id}  ${k.prefix}…  ${k.name ?? ''}${k.revoked_at ? '  (revoked)' : ''}\n`); });
      return EXIT.ok;
    }
    default:
      throw new UsageError(`unknown command "${cmd}" (see social help)`);
  }
}

/** Runs the CLI; answers the exit code. */
export async function runSocial(argv: string[], io: Io): Promise<number> {
  let p: Parsed;
  try {
    p = parseArgs(argv);
    return await command(p, io);
  } catch (err) {
    if (err instanceof UsageError) { io.err(`social: ${err.message}\n`); return EXIT.usage; }
    if (err instanceof SocialApiError) {
      if (argv.includes('--json')) io.out(JSON.stringify({ status: err.status, ...(err.body ?? { code: err.code, error: err.message }) }, null, 2) + '\n');
      io.err(`social: ${err.code}: ${err.message}${err.status ? ` (HTTP ${err.status})` : ''}\n`);
      return EXIT[err.errorClass];
    }
    io.err(`social: ${(err as Error)?.message ?? String(err)}\n`);
    return EXIT.unexpected;
  }
}

if (require.main === module) {
  const readStdin = async () => { const parts: Buffer[] = []; for await (const c of process.stdin) parts.push(c as Buffer); return Buffer.concat(parts).toString('utf8'); };
  runSocial(process.argv.slice(2), { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), env: process.env, readStdin })
    .then((code) => { process.exitCode = code; });
}
