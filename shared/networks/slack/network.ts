import { defineNetwork } from '../descriptor';
import { checkSlack, TEXT_RULE } from './limits';

/** Slack: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const slack = defineNetwork({
  name: 'slack',
  displayName: 'Slack',
  icon: { mark: 'S', color: '#4a154b' },
  check: checkSlack,
  text: TEXT_RULE,
  readBack: false,
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createSlackAdapter,
  verifier: (code) => code.createSlackVerifier,
});
