import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkHashnode, TEXT_RULE } from './limits';

/** Hashnode: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const hashnode = defineNetwork({
  name: 'hashnode',
  displayName: 'Hashnode',
  icon: { mark: 'H', color: '#1f4fd6' },
  check: checkHashnode,
  text: TEXT_RULE,
  manage: { delete: true, edit: true },
  readBack: true,
  config: CONFIG_KEYS,
  settings: (cfg) => ({ apiBase: cfg.HASHNODE_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createHashnodeAdapter,
  verifier: (code) => code.createHashnodeVerifier,
});
