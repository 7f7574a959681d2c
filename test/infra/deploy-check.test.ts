/**
 * `npm run deploy:check` as CI runs it: every stage synthesised with cdk-nag, parameters listed, a diff summary.
 * Bundling is skipped here (test/infra/bundle.test.ts bundles for real) and so is aws-cdk-lib's own template
 * validation (CDK_VALIDATION=false); cdk-nag still runs on the full stacks.
 */
process.env.CDK_VALIDATION = 'false';

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatReport, runDeployCheck } from '../../bin/deploy-check';

const baselineDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-check-base-'));
afterAll(() => fs.rmSync(baselineDir, { recursive: true, force: true }));

describe('deploy:check (offline)', () => {
  it('synthesises dev and prod cdk-nag clean, lists parameters with their state, and summarises changes', async () => {
    const first = await runDeployCheck({ stages: ['dev', 'prod'], bundle: false, baselineDir, save: true });
    expect(first.ok).toBe(true);
    const [dev, prod] = first.reports;
    for (const r of first.reports) {
      expect(r).toMatchObject({ synthOk: true, nag: [] });
      // nested stacks (the route groups) are listed with their parents; every stack stays under CloudFormation's 500
      expect(r.stacks.map((s) => s.name).filter((n) => !n.endsWith('.nested'))).toEqual(['Api', 'Dashboard', 'Data', 'Mcp', 'Observability', 'Workers'].map((p) => `SocialPublishing-${r.stage}-${p}`));
      for (const s of r.stacks) expect(s.resources).toBeLessThan(500);
      expect(r.diff.every((d) => d.isNew)).toBe(true);
    }
    expect(prod.parameters.find((p) => p.name === '-c mailFrom')).toMatchObject({ status: 'unset', note: expect.stringContaining('REQUIRED for prod') });
    expect(dev.parameters.find((p) => p.name === '-c mailFrom')).toMatchObject({ status: 'unset', note: expect.stringContaining('REQUIRED for dev') });
    // the nested stacks' references to their parent's resources are CloudFormation's business, not unset parameters
    expect(prod.parameters.filter((p) => p.kind === 'template' && /referenceto/.test(p.name))).toEqual([]);
    expect(prod.parameters.filter((p) => p.kind === 'ssm').map((p) => p.name)).toEqual(expect.arrayContaining([
      '/social-publishing/prod/oauth/x/client_id', '/social-publishing/prod/oauth/x/client_secret', '/social-publishing/prod/oauth/tiktok/client_secret',
    ]));
    expect(prod.parameters.filter((p) => p.kind === 'ssm').map((p) => p.name)).toEqual(expect.arrayContaining([
      expect.stringMatching(/\/STRIPE_SECRET_KEY$/), expect.stringMatching(/\/STRIPE_WEBHOOK_SECRET$/), expect.stringMatching(/\/STRIPE_PRICE_PRO_YEAR$/),
    ]));
    expect(prod.parameters.filter((p) => p.kind === 'ssm').every((p) => p.status === 'not checked (offline)')).toBe(true);

    const second = await runDeployCheck({
      stages: ['dev'], bundle: false, baselineDir, context: { alarmEmail: 'ops@example.com' },
      checkSsm: async (names) => new Set(names.filter((n) => n.includes('/x/'))),
    });
    const [again] = second.reports;
    expect(again.parameters.find((p) => p.name === '-c alarmEmail')).toMatchObject({ status: 'set' });
    expect(again.parameters.find((p) => p.name === '/social-publishing/dev/oauth/x/client_id')).toMatchObject({ status: 'set' });
    expect(again.parameters.find((p) => p.name === '/social-publishing/dev/oauth/reddit/client_id')).toMatchObject({ status: 'missing' });
    const obs = again.diff.find((d) => d.stack === 'SocialPublishing-dev-Observability')!;
    expect(obs.added).toEqual([expect.stringMatching(/\(AWS::SNS::Subscription\)$/)]);
    expect(again.diff.find((d) => d.stack === 'SocialPublishing-dev-Data')).toMatchObject({ added: [], removed: [], changed: [] });
    const text = formatReport(second.reports);
    expect(text).toContain('SocialPublishing-dev-Data: no change');
    expect(text).toMatch(/SocialPublishing-dev-Observability: \+1 -0 ~0\n {4}\+ .*AWS::SNS::Subscription/);
  });

  it('fails when a stage cannot be synthesised', async () => {
    const bad = await runDeployCheck({ stages: ['Not_A_Stage'], bundle: false, baselineDir });
    expect(bad.ok).toBe(false);
    expect(bad.reports[0]).toMatchObject({ synthOk: false, error: expect.stringContaining('Invalid stage') });
    expect(formatReport(bad.reports)).toContain('synth: FAILED');
  });
});
