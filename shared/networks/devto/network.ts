import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkDevto, TEXT_RULE } from './limits';

/** Devto: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const devto = defineNetwork({
  name: 'devto',
  displayName: 'DEV (dev.to)',
  icon: { mark: 'DEV', color: '#0a0a0a' },
  check: checkDevto,
  text: TEXT_RULE,
  manage: { delete: true, edit: true },
  readBack: true,
  config: CONFIG_KEYS,
  settings: (cfg) => ({ apiBase: cfg.DEVTO_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createDevtoAdapter,
  verifier: (code) => code.createDevtoVerifier,
});
