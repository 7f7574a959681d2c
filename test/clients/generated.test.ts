import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { routeList } from '../../functions/routes';

const ROOT = path.resolve(__dirname, '..', '..');
const CLIENT = path.join(ROOT, 'shared', 'client');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const check = (dir: string) => spawnSync(TSX, ['bin/client-generate.ts', '--check', '--dir', dir], { cwd: ROOT, encoding: 'utf8' });

describe('the typed client is generated from the route table (npm run client:generate)', () => {
  it('the committed shared/client/openapi.json and schema.d.ts are current; a stale copy is reported', () => {
    const current = check(CLIENT);
    expect({ status: current.status, stderr: current.stderr }).toEqual({ status: 0, stderr: '' });

    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'client-'));
    fs.copyFileSync(path.join(CLIENT, 'openapi.json'), path.join(tmp, 'openapi.json'));
    fs.writeFileSync(path.join(tmp, 'schema.d.ts'), fs.readFileSync(path.join(CLIENT, 'schema.d.ts'), 'utf8').replace('"/api/platforms"', '"/api/platformz"'));
    const stale = check(tmp);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain(`stale: ${path.join(tmp, 'schema.d.ts')}`);
    expect(stale.stderr).not.toContain('openapi.json');
  });

  it('every public route of the table is a typed path of the client, and no local-only route is', () => {
    const types = fs.readFileSync(path.join(CLIENT, 'schema.d.ts'), 'utf8');
    const doc = JSON.parse(execFileSync(TSX, ['bin/openapi.ts'], { cwd: ROOT, encoding: 'utf8' })) as { paths: Record<string, Record<string, { operationId: string }>> };
    for (const r of routeList) {
      const inTypes = types.includes(`"${r.id}": {`);
      const inDoc = doc.paths[r.path]?.[r.method.toLowerCase()]?.operationId === r.id;
      expect({ route: r.id, inTypes, inDoc }).toEqual({ route: r.id, inTypes: !r.localOnly, inDoc: !r.localOnly });
    }
  });
});
