import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkContent, MEDIA_RULES, TEXT_RULE } from './limits';

/** YouTube: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const youtube = defineNetwork({
  name: 'youtube',
  displayName: 'YouTube',
  icon: { mark: 'YT', color: '#cc0000' },
  check: checkContent,
  text: TEXT_RULE,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: true,
  options: ['thumbnail_url', 'playlist_id'],
  config: CONFIG_KEYS,
  /** Its hosts from the configuration (`YOUTUBE_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
  settings: (cfg) => ({ authBase: cfg.YOUTUBE_AUTH_BASE, apiBase: cfg.YOUTUBE_API_BASE, uploadBase: cfg.YOUTUBE_UPLOAD_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createYouTubeAdapter,
  verifier: (code) => code.createYouTubeVerifier,
  oauth: { pkce: true, renews: true, provider: (code) => code.createYouTubeProvider },
});
