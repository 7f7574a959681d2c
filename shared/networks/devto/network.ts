import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkDevto } from './limits';

/** Devto: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const devto: NetworkDescriptor = {
  name: 'devto',
  displayName: 'DEV (dev.to)',
  icon: { mark: 'DEV', color: '#0a0a0a' },
  check: checkDevto,
  manage: { delete: true, edit: true },
  readBack: true,
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('devto')
    : (require('./index') as typeof import('./index')).createDevtoAdapter({ apiBase: cfg.DEVTO_API_BASE }),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('devto')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createDevtoVerifier({ apiBase: cfg.DEVTO_API_BASE }),
};
