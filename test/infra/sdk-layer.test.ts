/**
 * The locked AWS SDK ships as a layer (infra/constructs/sdk-layer.ts): it holds every SDK package the code imports,
 * as the lock pins them, and a fresh Node process that sees only the layer loads the clients from it and sends a
 * real request (to a loopback listener). That every function carries it: test/infra/deploy-readiness.test.ts.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SDK_PACKAGES, sdkClosure, sdkLayerDirectory } from '../../infra/constructs/sdk-layer';

const ROOT = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

test('the layer lists every AWS SDK package the functions import, and nothing they do not', () => {
  const imported = new Set<string>();
  for (const f of [...sourceFiles(path.join(ROOT, 'shared')), ...sourceFiles(path.join(ROOT, 'functions'))]) {
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

test('a process that sees only the layer loads every SDK package from it and sends a DynamoDB request', async () => {
  const layer = path.join(sdkLayerDirectory(), 'nodejs', 'node_modules');
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(String(req.headers['x-amz-target']));
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-layer-'));
  const script = `
    const layer = ${JSON.stringify(layer)};
    for (const p of ${JSON.stringify(SDK_PACKAGES)}) {
      const at = require.resolve(p);
      if (!at.startsWith(layer)) throw new Error(p + ' loaded from ' + at);
      require(p);
    }
    const { DynamoDBClient, GetItemCommand } = require('@aws-sdk/client-dynamodb');
    new DynamoDBClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:${port}', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } })
      .send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'x' } } }))
      .then(() => console.log('sent'), (e) => { console.error(e); process.exit(1); });`;
  try {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['-e', script], { cwd, env: { PATH: process.env.PATH, NODE_PATH: layer, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
        (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)));
    });
    expect(out.trim()).toBe('sent');
    expect(seen).toEqual(['DynamoDB_20120810.GetItem']);
  } finally {
    server.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  }
});
