import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkWordpress, MEDIA_RULES } from './limits';

/** Wordpress: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const wordpress: NetworkDescriptor = {
  name: 'wordpress',
  displayName: 'WordPress',
  icon: { mark: 'W', color: '#21759b' },
  check: checkWordpress,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: true,
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('wordpress')
    : (require('./index') as typeof import('./index')).createWordpressAdapter(),
  verifier: () => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('wordpress')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createWordpressVerifier(),
};
