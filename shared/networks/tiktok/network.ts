import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkContent, MEDIA_RULES, TEXT_RULE } from './limits';

/** TikTok: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const tiktok = defineNetwork({
  name: 'tiktok',
  displayName: 'TikTok',
  icon: { mark: 'Tt', color: '#0a0a0a' },
  check: checkContent,
  text: TEXT_RULE,
  media: MEDIA_RULES,
  readBack: false,
  options: ['privacy_level'],
  config: CONFIG_KEYS,
  /** Its hosts from the configuration (`TIKTOK_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
  settings: (cfg) => ({ authBase: cfg.TIKTOK_AUTH_BASE, apiBase: cfg.TIKTOK_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createTikTokAdapter,
  verifier: (code) => code.createTikTokVerifier,
  oauth: { pkce: false, renews: true, provider: (code) => code.createTikTokProvider },
});
