import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkPinterest, MEDIA_RULES, TEXT_RULE } from './limits';

/** Pinterest: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const pinterest = defineNetwork({
  name: 'pinterest',
  displayName: 'Pinterest',
  icon: { mark: 'P', color: '#bd081c' },
  accountNoun: 'default board',
  check: checkPinterest,
  text: TEXT_RULE,
  media: MEDIA_RULES,
  readBack: true,
  options: ['thumbnail_url', 'board_id', 'link'],
  config: CONFIG_KEYS,
  /** Its hosts from the configuration (`PINTEREST_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
  settings: (cfg) => ({ authBase: cfg.PINTEREST_AUTH_BASE, apiBase: cfg.PINTEREST_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createPinterestAdapter,
  verifier: (code) => code.createPinterestVerifier,
  oauth: { pkce: false, renews: true, provider: (code) => code.createPinterestProvider },
});
