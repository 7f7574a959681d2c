import { networkCodeNotWired, relaysOf, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkNostr } from './limits';

/** Nostr: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const nostr: NetworkDescriptor = {
  name: 'nostr',
  displayName: 'Nostr',
  icon: { mark: 'N', color: '#662482' },
  check: checkNostr,
  readBack: true,
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('nostr')
    : (require('./index') as typeof import('./index')).createNostrAdapter({ defaultRelays: relaysOf(cfg), allowPrivate: cfg.ALLOW_PRIVATE_TARGETS }),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('nostr')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createNostrVerifier({ defaultRelays: relaysOf(cfg), allowPrivate: cfg.ALLOW_PRIVATE_TARGETS }),
};
