import fs from 'node:fs';
import path from 'node:path';
import { routeList } from '../functions/routes';
import { openApiDocument } from '../shared/http/openapi';

/**
 * `npm run openapi [-- --out <file>] [--server-url <url>] [--local]`: the OpenAPI 3.1 document of the route table
 * (the same document GET /api/openapi.json serves), printed to stdout or written to a file. Local-only routes
 * (/dev/*) are left out unless --local is given. The typed client is generated from it (`npm run client:generate`).
 */
export function publicDocument(opts: { serverUrl?: string; local?: boolean } = {}): Record<string, unknown> {
  return openApiDocument(routeList.filter((r) => opts.local || !r.localOnly), opts.serverUrl ?? 'http://localhost:3000');
}

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const text = JSON.stringify(publicDocument({ serverUrl: arg(argv, '--server-url'), local: argv.includes('--local') }), null, 2) + '\n';
  const out = arg(argv, '--out');
  if (out) {
    fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    fs.writeFileSync(out, text);
    process.stderr.write(`wrote ${out}\n`);
  } else {
    process.stdout.write(text);
  }
}
