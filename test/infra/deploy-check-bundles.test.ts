/**
 * deploy:check bundles each function once for all stages: the stages share one assembly directory, and aws-cdk-lib
 * reuses a staged bundle for the same directory, source and bundling options. Shown on one real esbuild bundle:
 * two apps (two stages) in one directory run esbuild once (each new directory bundles anew: the cache key holds it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import childProcess from 'node:child_process';
import { App, Stack } from 'aws-cdk-lib';
import { AppFunction } from '../../infra/constructs/app-function';
import { routes } from '../../functions/routes';
import { handlerFile } from '../../shared/http/route';

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });
const tmp = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-check-bundles-')); dirs.push(d); return d; };

/** Synthesizes one stage's app with the get-platforms function; answers how many times esbuild ran. */
function synthStage(stage: string, outdir: string): number {
  const spawn = jest.spyOn(childProcess, 'spawnSync');
  try {
    const app = new App({ outdir });
    new AppFunction(new Stack(app, `Check-${stage}`), 'GetPlatforms', { handlerFile: handlerFile(routes.getPlatforms), environment: { STAGE: stage } });
    app.synth();
    return spawn.mock.calls.filter((c) => String(c[0]).includes('esbuild') || (c[1] as string[] | undefined)?.some((a) => String(a).includes('esbuild'))).length;
  } finally {
    spawn.mockRestore();
  }
}

test('two stages in one assembly directory bundle the function once', () => {
  const shared = tmp();
  expect(synthStage('dev', shared)).toBeGreaterThan(0);
  expect(synthStage('prod', shared)).toBe(0);
});
