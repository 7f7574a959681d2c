import { buildDeps } from '../../shared/container';
import { config } from '../../shared/config';

describe('the container', () => {
  it('builds each dependency on first use and keeps it', () => {
    const deps = buildDeps({ ...config(), RUNTIME: 'local', DATA_DIR: '/tmp/unused-container-test' });
    expect(deps.posts).toBe(deps.posts);
    expect(deps.settings.runtime).toBe('local');
  });

  it('an object derived from the deps can override one dependency without changing the deps', () => {
    const deps = buildDeps({ ...config(), RUNTIME: 'local', DATA_DIR: '/tmp/unused-container-test' });
    const original = deps.connections;
    const derived = Object.create(deps) as typeof deps;
    const replacement = Object.create(original) as typeof original;
    derived.connections = replacement;
    expect(derived.connections).toBe(replacement);
    expect(deps.connections).toBe(original);
    expect(derived.posts).toBe(deps.posts);
  });
});
