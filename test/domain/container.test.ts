import { buildDeps } from '../../shared/container';
import { config } from '../../shared/config';
import { ManualClock } from '../support/clock';

const local = () => ({ ...config(), RUNTIME: 'local' as const, DATA_DIR: '/tmp/unused-container-test' });

describe('the container', () => {
  it('builds each dependency on first use and keeps it', () => {
    const deps = buildDeps(local());
    expect(deps.posts).toBe(deps.posts);
    expect(deps.settings.runtime).toBe('local');
  });

  it('a dependency given when it is built replaces the chosen one, and the adapters built with it read it', () => {
    const clock = new ManualClock(Date.UTC(2031, 0, 1));
    const deps = buildDeps(local(), { clock });
    expect(deps.clock).toBe(clock);
    expect(buildDeps(local()).clock).not.toBe(clock);
  });

  it('no dependency can be replaced once built: assigning one throws and leaves it as it was', () => {
    const deps = buildDeps(local());
    const original = deps.connections;
    expect(() => { (deps as { connections: unknown }).connections = {}; }).toThrow(TypeError);
    expect(() => { (deps as { clock: unknown }).clock = new ManualClock(); }).toThrow(TypeError);
    expect(() => { (deps as unknown as Record<string, unknown>).extra = 1; }).toThrow(TypeError);
    expect(deps.connections).toBe(original);
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(deps))) expect({ name, setter: d.set, configurable: d.configurable }).toEqual({ name, setter: undefined, configurable: false });
  });

  it('an object derived from the deps with its own member overrides that one, the others read through', () => {
    const deps = buildDeps(local());
    const original = deps.connections;
    const replacement = Object.create(original) as typeof original;
    const derived = Object.create(deps, { connections: { value: replacement } }) as typeof deps;
    expect(derived.connections).toBe(replacement);
    expect(deps.connections).toBe(original);
    expect(derived.posts).toBe(deps.posts);
  });

  it('a bundle without the local-only modules, run against the local engines, reaches them over HTTP', () => {
    // a Lambda bundle compiles SPA_WIRE_LOCAL to "off" (shared/wiring/declaration.ts); the benches' cold starts run
    // such a bundle with RUNTIME=local against the local engines' endpoints
    const before = process.env.SPA_WIRE_LOCAL;
    process.env.SPA_WIRE_LOCAL = 'off';
    try {
      const deps = buildDeps({ ...local(), DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', SQS_ENDPOINT: 'http://127.0.0.1:1' });
      expect(() => deps.posts).not.toThrow();
      expect(() => deps.queue).not.toThrow();
    } finally {
      if (before === undefined) delete process.env.SPA_WIRE_LOCAL;
      else process.env.SPA_WIRE_LOCAL = before;
    }
  });
});
