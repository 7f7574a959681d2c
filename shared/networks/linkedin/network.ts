import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkLinkedin, MEDIA_RULES, TEXT_RULE } from './limits';

/** Linkedin: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const linkedin = defineNetwork({
  name: 'linkedin',
  displayName: 'LinkedIn',
  icon: { mark: 'in', color: '#0a66c2' },
  check: checkLinkedin,
  text: TEXT_RULE,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: true,
  options: ['first_comment', 'document'],
  config: CONFIG_KEYS,
  /** Its hosts from the configuration (`LINKEDIN_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
  settings: (cfg) => ({ authBase: cfg.LINKEDIN_AUTH_BASE, apiBase: cfg.LINKEDIN_API_BASE, organizations: cfg.LINKEDIN_ORGANIZATIONS, postAnalytics: cfg.LINKEDIN_POST_ANALYTICS }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createLinkedinAdapter,
  verifier: (code) => code.createLinkedinVerifier,
  oauth: { pkce: false, renews: true, provider: (code) => code.createLinkedinProvider },
});
