// node:fs plus globSync for the conformance CLI on Node 20 (fs.globSync is Node 22+): the `glob` package's sync.
import fs from 'node:fs';
import glob from 'glob';
export * from 'node:fs';
export default fs;
export const globSync = fs.globSync ?? ((pattern, options) => glob.sync(pattern, options));
