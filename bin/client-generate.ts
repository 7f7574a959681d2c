import fs from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { publicDocument } from './openapi';

/**
 * `npm run client:generate`: writes the typed client's inputs from the route table: shared/client/openapi.json (the
 * public OpenAPI document) and shared/client/schema.d.ts (its types, by openapi-typescript). A test fails when the
 * committed files differ from what this produces (test/clients/generated.test.ts).
 */
export const CLIENT_DIR = path.resolve(__dirname, '..', 'shared', 'client');

export async function generateClientFiles(): Promise<{ 'openapi.json': string; 'schema.d.ts': string }> {
  const doc = publicDocument({ serverUrl: 'http://localhost:3000' });
  const ast = await openapiTS(doc as never);
  return { 'openapi.json': JSON.stringify(doc, null, 2) + '\n', 'schema.d.ts': COMMENT_HEADER + astToString(ast) };
}

/**
 * `--check [--dir D]`: writes nothing; exits 1 naming the files in D (default shared/client) that differ from a
 * fresh generation (openapi-typescript is ESM-only inside, so tests run this as a child process).
 */
if (require.main === module) {
  const argv = process.argv.slice(2);
  const dir = argv.includes('--dir') ? path.resolve(argv[argv.indexOf('--dir') + 1]) : CLIENT_DIR;
  generateClientFiles().then((files) => {
    if (argv.includes('--check')) {
      const stale = Object.entries(files).filter(([name, text]) => !fs.existsSync(path.join(dir, name)) || fs.readFileSync(path.join(dir, name), 'utf8') !== text);
      for (const [name] of stale) process.stderr.write(`stale: ${path.join(dir, name)} (run npm run client:generate)\n`);
      if (stale.length === 0) process.stdout.write('client files up to date\n');
      process.exit(stale.length ? 1 : 0);
    }
    for (const [name, text] of Object.entries(files)) {
      fs.writeFileSync(path.join(dir, name), text);
      process.stderr.write(`wrote ${path.relative(process.cwd(), path.join(dir, name))}\n`);
    }
  }, (err) => { process.stderr.write(`${(err as Error).stack ?? err}\n`); process.exit(1); });
}
