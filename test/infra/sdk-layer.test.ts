/**
 * The locked AWS SDK ships as a layer (infra/constructs/sdk-layer.ts): it holds every SDK package the code imports,
 * built from the versions the lock pins into one tree-shaken file per client, and a fresh Node process that sees
 * only the layer loads every name the code imports (read here from TypeScript's own parse of the sources) and sends
 * a real request with each client (to a loopback listener). That every function carries it:
 * test/infra/deploy-readiness.test.ts.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { LAYER_COPIES, SDK_PACKAGES, sdkClosure, sdkLayerDirectory, sourceFiles } from '../../infra/constructs/sdk-layer';

const ROOT = path.resolve(__dirname, '../..');

/** The values (not types) each source file imports from an SDK package, as TypeScript parses the imports. */
function valuesImported(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const f of sourceFiles()) {
    const file = ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest);
    for (const st of file.statements) {
      if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.startsWith('@aws-sdk/')) continue;
      const clause = st.importClause;
      if (!clause || clause.isTypeOnly) continue;
      const bindings = clause.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      const names = out.get(st.moduleSpecifier.text) ?? out.set(st.moduleSpecifier.text, new Set()).get(st.moduleSpecifier.text)!;
      for (const el of bindings.elements) if (!el.isTypeOnly) names.add((el.propertyName ?? el.name).text);
    }
  }
  return out;
}

test('the layer lists every AWS SDK package the functions import, and nothing they do not', () => {
  const imported = new Set<string>();
  for (const f of sourceFiles()) {
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/(?:from |import\()'(@aws-sdk\/[a-z0-9-]+)'/g)) imported.add(m[1]!);
  }
  expect([...imported].sort()).toEqual([...SDK_PACKAGES].sort());
});

test('the layer holds the versions package-lock.json pins', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
  const closure = sdkClosure();
  expect(closure.size).toBeGreaterThan(SDK_PACKAGES.length);
  for (const [rel, version] of closure) expect([rel, version]).toEqual([rel, lock.packages[`node_modules/${rel}`]?.version]);
});

test('a process that sees only the layer loads every name the code imports from it, and each client sends its request', async () => {
  const layer = path.join(sdkLayerDirectory(), 'nodejs', 'node_modules');
  const wanted = Object.fromEntries([...valuesImported()].map(([p, n]) => [p, [...n]]));
  expect(wanted['@aws-sdk/lib-dynamodb']).toEqual(expect.arrayContaining(['DynamoDBDocumentClient', 'QueryCommand']));
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(String(req.headers['x-amz-target'] ?? `${req.method} ${req.url!.split('?')[0]}`));
    req.resume();
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
  });
  // Bedrock's client speaks HTTP/2 (cleartext to a loopback endpoint)
  const h2 = http2.createServer((req, res) => {
    seen.push(`${req.method} ${req.url.split('?')[0]}`);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => h2.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const h2Port = (h2.address() as AddressInfo).port;
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-layer-'));
  const script = `
    const layer = ${JSON.stringify(layer)};
    const missing = [];
    for (const p of ${JSON.stringify([...SDK_PACKAGES, ...LAYER_COPIES])}) {
      const at = require.resolve(p);
      if (!at.startsWith(layer)) throw new Error(p + ' loaded from ' + at);
      const m = require(p);
      for (const n of (${JSON.stringify(wanted)})[p] ?? []) if (typeof m[n] !== 'function') missing.push(p + ' ' + n);
    }
    if (missing.length) throw new Error('not in the layer: ' + missing.join(', '));
    // the environment's credentials: the one source of the layer's clients
    process.env.AWS_ACCESS_KEY_ID = 'a'; process.env.AWS_SECRET_ACCESS_KEY = 'b';
    const at = { region: 'us-east-1', endpoint: 'http://127.0.0.1:${port}', maxAttempts: 1 };
    const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
    const { DynamoDBDocumentClient, GetCommand } = require('@aws-sdk/lib-dynamodb');
    const { SQSClient, SendMessageBatchCommand } = require('@aws-sdk/client-sqs');
    const { KMSClient, DecryptCommand } = require('@aws-sdk/client-kms');
    const { SSMClient, GetParametersByPathCommand } = require('@aws-sdk/client-ssm');
    const { SchedulerClient, DeleteScheduleCommand } = require('@aws-sdk/client-scheduler');
    const { SESv2Client, SendEmailCommand } = require('@aws-sdk/client-sesv2');
    const { BedrockRuntimeClient, ConverseCommand } = require('@aws-sdk/client-bedrock-runtime');
    const { S3Client, HeadObjectCommand, GetObjectCommand } = require('@aws-sdk/client-s3');
    const { getSignedUrl } = require('@aws-sdk/s3-request-presigner');
    const s3 = new S3Client({ ...at, forcePathStyle: true });
    const sends = [
      DynamoDBDocumentClient.from(new DynamoDBClient(at)).send(new GetCommand({ TableName: 't', Key: { pk: 'x' } })),
      new SQSClient(at).send(new SendMessageBatchCommand({ QueueUrl: 'http://127.0.0.1:${port}/1/q', Entries: [{ Id: '1', MessageBody: 'm' }] })),
      new KMSClient(at).send(new DecryptCommand({ CiphertextBlob: Buffer.from('x') })),
      new SSMClient(at).send(new GetParametersByPathCommand({ Path: '/p' })),
      new SchedulerClient(at).send(new DeleteScheduleCommand({ Name: 's' })),
      new SESv2Client(at).send(new SendEmailCommand({ FromEmailAddress: 'a@example.org', Destination: { ToAddresses: ['b@example.org'] }, Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 'b' } } } } })),
      new BedrockRuntimeClient({ ...at, endpoint: 'http://127.0.0.1:${h2Port}' }).send(new ConverseCommand({ modelId: 'm', messages: [{ role: 'user', content: [{ text: 'hi' }] }] })),
      s3.send(new HeadObjectCommand({ Bucket: 'b', Key: 'k' })),
    ];
    // the answers ('{}') need not satisfy every client: the requests reaching the listener are the point
    Promise.allSettled(sends).then(async () => {
      const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: 'b', Key: 'k' }), { expiresIn: 60 });
      console.log(new URL(url).searchParams.get('X-Amz-Expires') === '60' ? 'sent' : 'bad presign ' + url);
    }, (e) => { console.error(e); process.exit(1); });`;
  try {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['-e', script], { cwd, env: { PATH: process.env.PATH, NODE_PATH: layer, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
        (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)));
    });
    expect(out.trim()).toBe('sent');
    expect(seen.sort()).toEqual([
      'AmazonSQS.SendMessageBatch', 'AmazonSSM.GetParametersByPath', 'DELETE /schedules/s', 'DynamoDB_20120810.GetItem',
      'HEAD /b/k', 'POST /model/m/converse', 'POST /v2/email/outbound-emails', 'TrentService.Decrypt',
    ]);
  } finally {
    server.close();
    h2.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  }
});
