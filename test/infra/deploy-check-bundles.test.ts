/**
 * deploy:check and `cdk deploy` bundle each function once for all stages, all at once before the synth
 * (infra/lambda-bundles.ts): the stages share one assembly directory, and aws-cdk-lib reuses a staged asset for the
 * same directory, source and options. Shown on one real esbuild bundle.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { AppFunction } from '../../infra/constructs/app-function';
import { lambdaFunctions } from '../../infra/bundling';
import { bundleCounts, prebuildBundles } from '../../infra/lambda-bundles';
import { routes } from '../../functions/routes';
import { handlerFile } from '../../shared/http/route';

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });
const tmp = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-check-bundles-')); dirs.push(d); return d; };
const handler = handlerFile(routes.getPlatforms);

/** Synthesizes one stage's app with the get-platforms function; answers the staged bundle's code. */
function synthStage(stage: string, outdir: string): string {
  const app = new App({ outdir });
  new AppFunction(new Stack(app, `Check-${stage}`), 'GetPlatforms', { handlerFile: handler, environment: { STAGE: stage } });
  app.synth();
  const asset = fs.readdirSync(outdir).find((f) => f.startsWith('asset.') && fs.existsSync(path.join(outdir, f, 'index.js')));
  if (!asset) throw new Error('no staged bundle');
  return fs.readFileSync(path.join(outdir, asset, 'index.js'), 'utf8');
}

test('without a prebuild, two stages in one assembly directory build the bundle once', () => {
  const before = bundleCounts.builtOnDemand;
  const shared = tmp();
  const dev = synthStage('dev', shared);
  expect(bundleCounts.builtOnDemand).toBe(before + 1);
  expect(synthStage('prod', shared)).toBe(dev);
  expect(bundleCounts.builtOnDemand).toBe(before + 1);
});

test('after a prebuild, the synth copies the prebuilt bundle and builds nothing', async () => {
  await prebuildBundles(lambdaFunctions().filter((f) => f.handler === handler));
  const before = { ...bundleCounts };
  const code = synthStage('dev', tmp());
  expect(bundleCounts).toEqual(before);
  expect(code).toContain('sourceMappingURL=index.js.map');
});
