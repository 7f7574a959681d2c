/**
 * cdk-nag runs at every synth: the CDK entry (bin/app.ts, what `cdk synth` runs) adds the AwsSolutions pack,
 * so the cloud assembly carries its report; the entry synthesises clean. Bundling is skipped (context).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { addSecurityChecks } from '../../bin/app';

const ROOT = path.resolve(__dirname, '..', '..');

test('`cdk synth` (the bin/app.ts entry) runs the AwsSolutions checks and passes them', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-'));
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'bin', 'app.ts')], {
      cwd: ROOT, stdio: 'pipe', timeout: 120_000,
      env: { ...process.env, CDK_OUTDIR: outdir, CDK_VALIDATION: 'false', CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org' }) },
    });
    const report = JSON.parse(fs.readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as { pluginReports: Array<{ pluginName: string; violations: unknown[] }> };
    expect(report.pluginReports.map((p) => [p.pluginName, p.violations.length])).toEqual([['AwsSolutions', 0]]);
    expect(fs.readdirSync(outdir).filter((f) => f.endsWith('.template.json')).length).toBeGreaterThanOrEqual(6);
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
});

test('-c nag=false skips the checks', () => {
  expect(addSecurityChecks(new App({ context: { nag: 'false' } }))).toBe(false);
  expect(addSecurityChecks(new App())).toBe(true);
});
