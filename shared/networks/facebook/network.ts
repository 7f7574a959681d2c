import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkFacebook, TEXT_RULE } from './limits';

/** Facebook: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const facebook = defineNetwork({
  name: 'facebook',
  displayName: 'Facebook',
  icon: { mark: 'f', color: '#0b5ed7' },
  accountNoun: 'Page',
  check: checkFacebook,
  text: TEXT_RULE,
  manage: { delete: true, edit: true },
  readBack: true,
  options: ['first_comment', 'reel'],
  config: CONFIG_KEYS,
  /** Its hosts from the configuration (`FACEBOOK_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
  settings: (cfg) => ({ authBase: cfg.FACEBOOK_AUTH_BASE, apiBase: cfg.FACEBOOK_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createFacebookAdapter,
  verifier: (code) => code.createFacebookVerifier,
  oauth: { pkce: false, renews: false, provider: (code) => code.createFacebookProvider },
});
