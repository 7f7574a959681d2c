import { buildDeps } from '../../shared/container';
import { config } from '../../shared/config';
import fs from 'node:fs';
import path from 'node:path';
import { unwiredMessage, WIRE_GROUPS, WIRING, wiredGroups, wiringDefines } from '../../shared/wiring/declaration';
import { routes } from '../../functions/routes';

const localDeps = () => buildDeps({ ...config(), RUNTIME: 'local', DATA_DIR: '/tmp/unused-wiring-test' });

describe('wiring declarations', () => {
  it('turn grants and networks into the switches of a Lambda bundle; the local stand-ins are always off', () => {
    expect(wiringDefines({ grants: [] })).toEqual({
      'process.env.SPA_WIRE_TABLE': '"off"', 'process.env.SPA_WIRE_SQS': '"off"', 'process.env.SPA_WIRE_S3': '"off"', 'process.env.SPA_WIRE_SES': '"off"',
      'process.env.SPA_WIRE_KMS': '"off"', 'process.env.SPA_WIRE_SCHEDULER': '"off"', 'process.env.SPA_WIRE_OAUTH_SSM': '"off"',
      'process.env.SPA_WIRE_BILLING': '"off"', 'process.env.SPA_WIRE_AI': '"off"', 'process.env.SPA_WIRE_NETWORKS': '"off"', 'process.env.SPA_WIRE_LOCAL': '"off"',
      'process.env.SPA_WIRE_TRACING': '"off"', 'process.env.SPA_WIRE_PUBLISH': '"off"',
    });
    expect([...wiredGroups(routes.postPost)].sort()).toEqual(['KMS', 'SCHEDULER', 'SES', 'SQS', 'TABLE']);
    expect([...wiredGroups(routes.postConnect)].sort()).toContain('NETWORKS');
    expect([...wiredGroups({ grants: ['kmsDecrypt', 'bucketRead', 'webhookQueue'] })].sort()).toEqual(['KMS', 'S3', 'SQS']);
    expect(wiringDefines(routes.getMediaFile)['process.env.SPA_WIRE_S3']).toBe('"on"');
  });
});

describe('one wiring table', () => {
  it('every grant belongs to one group, and every group names what a function declares to get it', () => {
    const grants = WIRE_GROUPS.flatMap((g) => [...WIRING[g].grants]);
    expect(new Set(grants).size).toBe(grants.length);
    for (const g of WIRE_GROUPS) expect(unwiredMessage('The thing', g)).toContain(`must declare ${WIRING[g].declare}`);
  });

  it("each lazy loader of the container reads its own group's switch and names that group when unwired", () => {
    const source = fs.readFileSync(path.join(__dirname, '../../shared/container.ts'), 'utf8');
    const loaders = [...source.matchAll(/process\.env\.SPA_WIRE_(\w+) === 'off'(?: && process\.env\.SPA_WIRE_\w+ === 'off')?\s*\?\s*unwired\('[^']+', '(\w+)'\)/g)];
    expect(loaders.length).toBeGreaterThanOrEqual(20);
    for (const [, sw, group] of loaders) {
      expect(WIRE_GROUPS).toContain(sw);
      expect([sw, group]).toEqual([sw, sw]);
    }
  });
});

describe('the container outside a bundle', () => {
  afterEach(() => { delete process.env.SPA_WIRE_SES; delete process.env.SPA_WIRE_LOCAL; });

  it('wires everything when no switch is set, and refuses an adapter whose switch is off', () => {
    expect(localDeps().mailer).toBeDefined();
    process.env.SPA_WIRE_LOCAL = 'off';
    expect(() => localDeps().mailer).toThrow('The outbox mailer (local runtime only) is not wired into this function');
    process.env.SPA_WIRE_SES = 'off';
    expect(() => buildDeps({ ...config(), RUNTIME: 'aws', MAIL_FROM: 'a@example.org' }).mailer).toThrow("its route or worker must declare the 'ses' grant");
  });
});
