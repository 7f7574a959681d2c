import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkSlack } from './limits';

/** Slack: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const slack: NetworkDescriptor = {
  name: 'slack',
  displayName: 'Slack',
  icon: { mark: 'S', color: '#4a154b' },
  check: checkSlack,
  readBack: false,
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('slack')
    : (require('./index') as typeof import('./index')).createSlackAdapter(),
  verifier: () => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('slack')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createSlackVerifier(),
};
