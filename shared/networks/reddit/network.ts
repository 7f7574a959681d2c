import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkReddit, TEXT_RULE } from './limits';

/** Reddit: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const reddit = defineNetwork({
  name: 'reddit',
  displayName: 'Reddit',
  icon: { mark: 'R', color: '#c23b00' },
  check: checkReddit,
  text: TEXT_RULE,
  manage: { delete: true, edit: true },
  readBack: true,
  config: CONFIG_KEYS,
  /** Its hosts from the configuration (`REDDIT_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
  settings: (cfg) => ({ authBase: cfg.REDDIT_AUTH_BASE, apiBase: cfg.REDDIT_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createRedditAdapter,
  verifier: (code) => code.createRedditVerifier,
  oauth: { pkce: false, renews: true, provider: (code) => code.createRedditProvider },
});
