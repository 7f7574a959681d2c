import fs from 'node:fs';
import path from 'node:path';
import type { SandboxSimulator } from '../../../shared/networks/sandbox-kit/sandbox-simulator';

/** Where the network folders are: each registered network's simulator is `<folder>/<name>/simulator.ts`. */
const NETWORK_FOLDERS = path.resolve(__dirname, '../../../shared/networks');

/**
 * Loads a network's simulator by convention from its name in the registry: `shared/networks/<name>/simulator.ts`,
 * exporting `simulator`. The one place that loads simulators: a require() by a computed path (the local runtime runs
 * under tsx, never bundled), so no list of simulators is written anywhere and no Lambda bundle can reach one.
 */
export function loadSimulator(network: string, folders: string = NETWORK_FOLDERS): SandboxSimulator {
  const file = path.join(folders, network, 'simulator');
  if (!['.ts', '.js'].some((ext) => fs.existsSync(`${file}${ext}`))) {
    throw new Error(`The network ${network} has no sandbox simulator: add ${path.relative(process.cwd(), file)}.ts exporting \`simulator\``);
  }
  const loaded = require(file) as { simulator?: SandboxSimulator };
  if (!loaded.simulator || typeof loaded.simulator.create !== 'function') {
    throw new Error(`${path.relative(process.cwd(), file)}.ts must export \`simulator\` (a SandboxSimulator)`);
  }
  return loaded.simulator;
}
