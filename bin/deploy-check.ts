import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildStacks, settingsFrom } from './app';
import { prebuildBundles } from '../infra/lambda-bundles';
import { PLATFORMS } from '../shared/domain/platforms';
import { PLANS } from '../shared/domain/plans';

/**
 * `npm run deploy:check` — offline, no AWS credentials: for every stage
 *   1. synthesises the whole app (esbuild bundles included, unless --no-bundle; every function is bundled once, for
 *      all stages and all at once, before the first synth: infra/lambda-bundles.ts),
 *   2. runs the cdk-nag AwsSolutions pack (clean = no unacknowledged error or warning),
 *   3. lists every parameter the stacks read (CDK context, the SSM parameters the functions read, template
 *      parameters) with whether it is set (SSM values are checked only with --aws, which calls SSM),
 *   4. summarises the difference from the previous check's templates (.deploy-check/<stage>/, kept with --save).
 * Exit 1 when a synth fails or cdk-nag finds anything; 0 otherwise (unset optional parameters are listed, not fatal).
 *
 *   npm run deploy:check -- [--stages dev,prod] [-c key=value ...] [--no-bundle] [--save] [--baseline DIR] [--aws]
 */
export interface CheckOptions {
  stages: string[];
  context?: Record<string, string>;
  bundle?: boolean;
  baselineDir?: string;
  save?: boolean;
  /** Reads SSM to say whether each parameter exists (needs credentials). */
  checkSsm?: (names: string[]) => Promise<Set<string>>;
  /**
   * The cloud assembly directory, shared by every stage of one run: aws-cdk-lib keeps each staged asset in a
   * process-wide cache keyed by the output directory, source and bundling options, so with one directory a
   * function's esbuild bundle is built once for all stages. Default: a new temporary directory per stage.
   */
  outdir?: string;
}

export interface ParameterLine { name: string; kind: 'context' | 'ssm' | 'template'; status: 'set' | 'default' | 'unset' | 'not checked (offline)' | 'missing'; note: string }
export interface StackDiff { stack: string; added: string[]; removed: string[]; changed: string[]; isNew: boolean }
export interface StageReport {
  stage: string;
  synthOk: boolean;
  error?: string;
  stacks: Array<{ name: string; resources: number }>;
  nag: string[];
  parameters: ParameterLine[];
  diff: StackDiff[];
}

const CONTEXT_KEYS: Array<{ key: string; note: string; requiredFor?: string }> = [
  { key: 'stage', note: 'stage name (default dev)' },
  { key: 'mailFrom', note: 'SES sender, a verified identity', requiredFor: '*' },
  { key: 'publicBaseUrl', note: 'public origin for emailed/connect links (default: the execute-api URL)' },
  { key: 'alarmEmail', note: 'subscribed to the alarm topic' },
  { key: 'mcpReservedConcurrency', note: 'caps the MCP function, whose function URL is outside the API throttles and the WAF (default: no cap; the account quota must cover it with 100 left unreserved)' },
  { key: 'linkedinOrganizations', note: 'LinkedIn organisation pages as targets (the app needs the Community Management API; default false)' },
  { key: 'linkedinPostAnalytics', note: 'LinkedIn member post analytics (the app needs r_member_postAnalytics; default false)' },
  { key: 'apiDomainName', note: 'the API\'s custom domain with -c apiCertificateArn; disables the execute-api endpoint (default: it stays reachable — behind the WAF it answers 403 without the edge header, but still runs a function)' },
];

type Template = { Resources?: Record<string, { Type: string; Properties?: unknown }>; Parameters?: Record<string, { Default?: unknown; Description?: string }> };

function nagFindings(outdir: string): string[] {
  const file = path.join(outdir, 'validation-report.json');
  if (!fs.existsSync(file)) return [];
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as { pluginReports: Array<{ violations: Array<{ ruleName: string; severity: string; violatingConstructs?: Array<{ constructPath: string }> }> }> };
  return report.pluginReports.flatMap((p) => p.violations.flatMap((v) => (v.violatingConstructs ?? [{ constructPath: '?' }]).map((c) => `${v.severity} ${v.ruleName} at ${c.constructPath}`)));
}

function diffTemplates(stack: string, before: Template | undefined, after: Template): StackDiff {
  const a = before?.Resources ?? {};
  const b = after.Resources ?? {};
  const label = (id: string, r: { Type: string }) => `${id} (${r.Type})`;
  return {
    stack, isNew: before === undefined,
    added: Object.keys(b).filter((id) => !(id in a)).map((id) => label(id, b[id])),
    removed: Object.keys(a).filter((id) => !(id in b)).map((id) => label(id, a[id])),
    changed: Object.keys(b).filter((id) => id in a && JSON.stringify(a[id]) !== JSON.stringify(b[id])).map((id) => label(id, b[id])),
  };
}

function functionEnvValues(template: Template, name: string): string[] {
  const out = new Set<string>();
  for (const r of Object.values(template.Resources ?? {})) {
    const env = (r.Properties as { Environment?: { Variables?: Record<string, unknown> } } | undefined)?.Environment?.Variables;
    const v = env?.[name];
    if (typeof v === 'string') out.add(v);
  }
  return [...out];
}

export async function checkStage(stage: string, opts: CheckOptions): Promise<StageReport> {
  const outdir = opts.outdir ?? fs.mkdtempSync(path.join(os.tmpdir(), `deploy-check-${stage}-`));
  // a shared directory keeps the bundles (asset.*) of the stages before; their templates and reports go
  for (const f of fs.readdirSync(outdir)) if (f.endsWith('.template.json') || f === 'validation-report.json') fs.rmSync(path.join(outdir, f), { force: true });
  const cleanUp = () => { if (!opts.outdir) fs.rmSync(outdir, { recursive: true, force: true }); };
  const given: Record<string, string> = { ...(opts.context ?? {}), stage };
  const placeholders: Record<string, string> = {};
  if (!given.mailFrom) placeholders.mailFrom = 'no-reply@example.com';
  const app = new App({
    outdir,
    context: { ...given, ...placeholders, ...(opts.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {}) },
  });
  const report: StageReport = { stage, synthOk: false, stacks: [], nag: [], parameters: [], diff: [] };
  try {
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    const settings = settingsFrom(app);
    buildStacks(app, settings);
    app.synth();
    report.synthOk = true;
  } catch (err) {
    report.error = (err as Error).message.split('\n').slice(0, 5).join('\n');
  }
  report.nag = nagFindings(outdir);
  if (!report.synthOk) { cleanUp(); return report; }

  const templates: Record<string, Template> = {};
  for (const f of fs.readdirSync(outdir).filter((n) => n.endsWith('.template.json'))) {
    const name = f.replace(/\.template\.json$/, '');
    templates[name] = JSON.parse(fs.readFileSync(path.join(outdir, f), 'utf8')) as Template;
    report.stacks.push({ name, resources: Object.keys(templates[name].Resources ?? {}).length });
  }

  for (const c of CONTEXT_KEYS) {
    const set = given[c.key] !== undefined;
    const required = c.requiredFor === stage || c.requiredFor === '*';
    report.parameters.push({
      name: `-c ${c.key}`, kind: 'context', status: set ? 'set' : required ? 'unset' : 'default',
      note: `${c.note}${required && !set ? ` — REQUIRED for ${stage} (checked with a placeholder)` : ''}`,
    });
  }
  const prefixes = Object.values(templates).flatMap((t) => functionEnvValues(t, 'OAUTH_SSM_PREFIX'));
  const ssmNames = [...new Set(prefixes)].flatMap((prefix) => PLATFORMS.filter((p) => p.oauth)
    .flatMap((p) => [`${prefix}/${p.name}/client_id`, `${prefix}/${p.name}/client_secret`]));
  // Billing: Stripe's secret key, webhook secret and one price per paid plan and interval
  const billingPrefixes = [...new Set(Object.values(templates).flatMap((t) => functionEnvValues(t, 'BILLING_SSM_PREFIX')))];
  const billingNames = billingPrefixes.flatMap((prefix) => ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', ...Object.keys(PLANS)
    .filter((p) => p !== 'free').flatMap((p) => ['MONTH', 'YEAR'].map((i) => `STRIPE_PRICE_${p.toUpperCase()}_${i}`))].map((n) => `${prefix}/${n}`));
  const existing = opts.checkSsm ? await opts.checkSsm([...ssmNames, ...billingNames]) : undefined;
  const ssmStatus = (name: string) => (existing ? (existing.has(name) ? 'set' as const : 'missing' as const) : 'not checked (offline)' as const);
  for (const name of ssmNames) {
    report.parameters.push({ name, kind: 'ssm', status: ssmStatus(name), note: 'OAuth client registration (SecureString); unset = that network answers oauth_not_configured' });
  }
  for (const name of billingNames) {
    report.parameters.push({ name, kind: 'ssm', status: ssmStatus(name), note: 'Stripe (SecureString); without STRIPE_SECRET_KEY billing answers billing_unavailable' });
  }
  for (const [stack, t] of Object.entries(templates)) {
    for (const [name, p] of Object.entries(t.Parameters ?? {})) {
      // a nested stack's references to its parent's resources are filled by CloudFormation, not by the operator
      if (/^referenceto/.test(name)) continue;
      report.parameters.push({ name: `${stack}.${name}`, kind: 'template', status: p.Default !== undefined ? 'default' : 'unset', note: p.Description ?? String(p.Default ?? '') });
    }
  }

  const baseline = path.join(opts.baselineDir ?? '.deploy-check', stage);
  for (const [name, t] of Object.entries(templates)) {
    const file = path.join(baseline, `${name}.template.json`);
    const before = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Template) : undefined;
    report.diff.push(diffTemplates(name, before, t));
    if (opts.save) { fs.mkdirSync(baseline, { recursive: true }); fs.writeFileSync(file, JSON.stringify(t, null, 1)); }
  }
  cleanUp();
  return report;
}

export async function runDeployCheck(opts: CheckOptions): Promise<{ ok: boolean; reports: StageReport[] }> {
  const reports: StageReport[] = [];
  // one assembly directory for every stage: each function is bundled once, not once per stage
  const outdir = opts.outdir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-check-'));
  try {
    // every function's bundle at once on esbuild's service; the stages' synths copy them (infra/lambda-bundles.ts)
    if (opts.bundle !== false) await prebuildBundles();
    for (const stage of opts.stages) reports.push(await checkStage(stage, { ...opts, outdir }));
  } finally {
    if (!opts.outdir) fs.rmSync(outdir, { recursive: true, force: true });
  }
  return { ok: reports.every((r) => r.synthOk && r.nag.length === 0), reports };
}

export function formatReport(reports: StageReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    lines.push(`== stage ${r.stage}`);
    lines.push(r.synthOk ? `synth: ok (${r.stacks.map((s) => `${s.name}: ${s.resources} resources`).join(', ')})` : `synth: FAILED\n  ${r.error}`);
    lines.push(r.nag.length === 0 ? 'cdk-nag: clean (AwsSolutions; acknowledged rules are listed in docs/operations.md)' : `cdk-nag: ${r.nag.length} finding(s)`);
    for (const n of r.nag) lines.push(`  ${n}`);
    if (r.parameters.length) lines.push('parameters:');
    for (const p of r.parameters) lines.push(`  ${p.status.padEnd(22)} ${p.kind.padEnd(8)} ${p.name}  ${p.note}`);
    if (r.diff.length) lines.push('diff against the previous check:');
    for (const d of r.diff) {
      if (d.isNew) lines.push(`  ${d.stack}: no baseline (run with --save to keep this one)`);
      else if (!d.added.length && !d.removed.length && !d.changed.length) lines.push(`  ${d.stack}: no change`);
      else {
        lines.push(`  ${d.stack}: +${d.added.length} -${d.removed.length} ~${d.changed.length}`);
        for (const x of d.added) lines.push(`    + ${x}`);
        for (const x of d.removed) lines.push(`    - ${x}`);
        for (const x of d.changed) lines.push(`    ~ ${x}`);
      }
    }
  }
  return lines.join('\n') + '\n';
}

function parseCli(argv: string[]): CheckOptions & { aws: boolean } {
  const context: Record<string, string> = {};
  let stages = ['dev', 'prod'];
  let bundle = true;
  let save = false;
  let aws = false;
  let baselineDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-c' || a === '--context') {
      const [k, ...v] = (argv[++i] ?? '').split('=');
      context[k] = v.join('=');
    } else if (a === '--stages') stages = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a === '--no-bundle') bundle = false;
    else if (a === '--save') save = true;
    else if (a === '--aws') aws = true;
    else if (a === '--baseline') baselineDir = argv[++i];
    else throw new Error(`unknown option ${a}`);
  }
  return { stages, context, bundle, save, aws, ...(baselineDir ? { baselineDir } : {}) };
}

async function ssmChecker(): Promise<(names: string[]) => Promise<Set<string>>> {
  const { SSMClient, GetParametersCommand } = await import('@aws-sdk/client-ssm');
  const ssm = new SSMClient({});
  return async (names) => {
    const found = new Set<string>();
    for (let i = 0; i < names.length; i += 10) {
      const out = await ssm.send(new GetParametersCommand({ Names: names.slice(i, i + 10) }));
      for (const p of out.Parameters ?? []) if (p.Name) found.add(p.Name);
    }
    return found;
  };
}

if (require.main === module) {
  (async () => {
    const opts = parseCli(process.argv.slice(2));
    const { ok, reports } = await runDeployCheck({ ...opts, ...(opts.aws ? { checkSsm: await ssmChecker() } : {}) });
    process.stdout.write(formatReport(reports));
    process.stdout.write(ok ? 'deploy:check passed\n' : 'deploy:check FAILED\n');
    process.exitCode = ok ? 0 : 1;
  })().catch((err) => { process.stderr.write(`deploy:check: ${(err as Error).message}\n`); process.exitCode = 1; });
}
