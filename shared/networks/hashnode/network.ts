import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkHashnode } from './limits';

/** Hashnode: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const hashnode: NetworkDescriptor = {
  name: 'hashnode',
  displayName: 'Hashnode',
  icon: { mark: 'H', color: '#1f4fd6' },
  check: checkHashnode,
  manage: { delete: true, edit: true },
  readBack: true,
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('hashnode')
    : (require('./index') as typeof import('./index')).createHashnodeAdapter({ apiBase: cfg.HASHNODE_API_BASE }),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('hashnode')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createHashnodeVerifier({ apiBase: cfg.HASHNODE_API_BASE }),
};
