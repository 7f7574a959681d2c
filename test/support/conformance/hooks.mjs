// Module resolve hook: the conformance CLI's `import { globSync } from "fs"` gets fs-glob-sync.mjs (Node 20 lacks it).
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: new URL('./fs-glob-sync.mjs', import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}
