import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkInstagram, MEDIA_RULES, TEXT_RULE } from './limits';

/** Instagram: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const instagram = defineNetwork({
  name: 'instagram',
  displayName: 'Instagram',
  icon: { mark: 'Ig', color: '#b52f7a' },
  accountNoun: 'business account',
  check: checkInstagram,
  text: TEXT_RULE,
  media: MEDIA_RULES,
  readBack: true,
  options: ['first_comment', 'story'],
  config: CONFIG_KEYS,
  /** Its hosts from the configuration: it signs in through Facebook Login (`INSTAGRAM_AUTH_BASE`) and posts through the Graph API (`FACEBOOK_API_BASE`). */
  settings: (cfg) => ({ authBase: cfg.INSTAGRAM_AUTH_BASE, apiBase: cfg.FACEBOOK_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createInstagramAdapter,
  verifier: (code) => code.createInstagramVerifier,
  oauth: { pkce: false, renews: false, provider: (code) => code.createInstagramProvider },
});
