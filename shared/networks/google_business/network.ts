import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkGoogleBusiness, MEDIA_RULES, TEXT_RULE } from './limits';

/** Google Business Profile: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const google_business = defineNetwork({
  name: 'google_business',
  displayName: 'Google Business Profile',
  icon: { mark: 'G', color: '#1765cc' },
  accountNoun: 'location',
  check: checkGoogleBusiness,
  text: TEXT_RULE,
  media: MEDIA_RULES,
  readBack: true,
  options: ['event', 'offer', 'call_to_action'],
  config: CONFIG_KEYS,
  /** Its hosts from the configuration (`GOOGLE_BUSINESS_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
  settings: (cfg) => ({ authBase: cfg.GOOGLE_BUSINESS_AUTH_BASE, apiBase: cfg.GOOGLE_BUSINESS_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createGoogleBusinessAdapter,
  verifier: (code) => code.createGoogleBusinessVerifier,
  oauth: { pkce: true, renews: true, provider: (code) => code.createGoogleBusinessProvider },
});
