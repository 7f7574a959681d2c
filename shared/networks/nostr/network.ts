import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkNostr, TEXT_RULE } from './limits';

/** Nostr: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const nostr = defineNetwork({
  name: 'nostr',
  displayName: 'Nostr',
  icon: { mark: 'N', color: '#662482' },
  check: checkNostr,
  text: TEXT_RULE,
  readBack: true,
  config: CONFIG_KEYS,
  settings: (cfg) => ({ defaultRelays: cfg.NOSTR_DEFAULT_RELAYS.split(',').map((r) => r.trim()).filter(Boolean), allowPrivate: cfg.ALLOW_PRIVATE_TARGETS }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createNostrAdapter,
  verifier: (code) => code.createNostrVerifier,
});
