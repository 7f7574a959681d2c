import { buildDeps } from '../../shared/container';
import { config } from '../../shared/config';
import type { Deps } from '../../shared/app/deps';
import { declaredDeps, UndeclaredDependencyError, wiredGroups, wiringDefines } from '../../shared/wiring/declaration';
import { routes } from '../../functions/routes';

const localDeps = () => buildDeps({ ...config(), RUNTIME: 'local', DATA_DIR: '/tmp/unused-wiring-test' });

describe('wiring declarations', () => {
  it('turn grants and networks into the switches of a Lambda bundle; the local stand-ins are always off', () => {
    expect(wiringDefines({ grants: [] })).toEqual({
      'process.env.SPA_WIRE_TABLE': '"off"', 'process.env.SPA_WIRE_SQS': '"off"', 'process.env.SPA_WIRE_S3': '"off"', 'process.env.SPA_WIRE_SES': '"off"',
      'process.env.SPA_WIRE_KMS': '"off"', 'process.env.SPA_WIRE_SCHEDULER': '"off"', 'process.env.SPA_WIRE_OAUTH_SSM': '"off"',
      'process.env.SPA_WIRE_BILLING': '"off"', 'process.env.SPA_WIRE_AI': '"off"', 'process.env.SPA_WIRE_NETWORKS': '"off"', 'process.env.SPA_WIRE_LOCAL': '"off"',
      'process.env.SPA_WIRE_TRACING': '"off"', 'process.env.SPA_WIRE_PUBLISH': '"off"',
    });
    expect([...wiredGroups(routes.postPost)].sort()).toEqual(['KMS', 'SCHEDULER', 'SES', 'SQS', 'TABLE']);
    expect([...wiredGroups(routes.postConnect)].sort()).toContain('NETWORKS');
    expect([...wiredGroups({ grants: ['kmsDecrypt', 'bucketRead', 'webhookQueue'] })].sort()).toEqual(['KMS', 'S3', 'SQS']);
    expect(wiringDefines(routes.getMediaFile)['process.env.SPA_WIRE_S3']).toBe('"on"');
  });
});

describe('a route sees only the dependencies it declares', () => {
  it('an undeclared member throws, naming the route and the declaration it lacks; declared ones read through', () => {
    const deps = localDeps();
    const view = declaredDeps(deps, 'route get-keys', routes.getKeys);
    expect(view.keys).toBe(deps.keys);
    expect(view.clock).toBe(deps.clock);
    expect(view.settings).toBe(deps.settings);
    expect(() => view.mailer).toThrow(UndeclaredDependencyError);
    expect(() => view.mailer).toThrow("route get-keys uses deps.mailer but does not declare the 'ses' grant");
    expect(() => view.networks).toThrow('`networks: true`');
    expect(() => view.queue).toThrow("a 'publishQueue' or 'webhookQueue' grant");
    expect(() => view.oauth.providers).toThrow('deps.oauth.providers');
    expect(() => view.oauth.clients).toThrow("the 'oauthConfig' grant");
  });

  it('OAuth: the client registrations need oauthConfig, the sign-in providers need networks', () => {
    const deps = localDeps();
    const platforms = declaredDeps(deps, 'route get-platforms', routes.getPlatforms);
    expect(platforms.oauth.clients).toBe(deps.oauth.clients);
    expect(() => platforms.oauth.providers).toThrow(UndeclaredDependencyError);
    const callback = declaredDeps(deps, 'route get-oauth-callback', routes.getOauthCallback);
    expect(callback.oauth.providers).toBe(deps.oauth.providers);
    expect(callback.networks).toBe(deps.networks);
  });

  it('a dependency replaced on the deps afterwards (tests) shows through the view', () => {
    const deps = localDeps();
    const view = declaredDeps(deps, 'route post-post', routes.postPost);
    const replacement = { sendAll: async () => undefined } as unknown as Deps['queue'];
    deps.queue = replacement;
    expect(view.queue).toBe(replacement);
  });
});

describe('the container outside a bundle', () => {
  afterEach(() => { delete process.env.SPA_WIRE_SES; delete process.env.SPA_WIRE_LOCAL; });

  it('wires everything when no switch is set, and refuses an adapter whose switch is off', () => {
    expect(localDeps().mailer).toBeDefined();
    process.env.SPA_WIRE_LOCAL = 'off';
    expect(() => localDeps().mailer).toThrow('The outbox mailer (local runtime only) is not wired into this function');
    process.env.SPA_WIRE_SES = 'off';
    expect(() => buildDeps({ ...config(), RUNTIME: 'aws', MAIL_FROM: 'a@example.org' }).mailer).toThrow("its route or worker must declare the 'ses' grant");
  });
});
