import type { Registry } from '../ports/networks';
import type { PlatformName } from '../domain/platforms';
import { traced } from '../tracing';

const CALLS = new Set(['verify', 'publish', 'resume', 'readBack', 'delete', 'edit']);

/**
 * The registry with every network call (verify, publish, resume, readBack, delete, edit) in its own X-Ray subsegment `## <platform>.<call>`,
 * annotated with the platform and the current post id. A pass-through when tracing is off.
 */
export function tracedRegistry(registry: Registry): Registry {
  const out: Registry = {};
  for (const [platform, adapter] of Object.entries(registry) as Array<[PlatformName, NonNullable<Registry[PlatformName]>]>) {
    out[platform] = new Proxy(adapter, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof prop !== 'string' || !CALLS.has(prop) || typeof value !== 'function') return value;
        return (...args: unknown[]) => traced(`## ${platform}.${prop}`, { platform }, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      },
    });
  }
  return out;
}
