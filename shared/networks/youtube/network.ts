import type { Config } from '../../config';
import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkContent, MEDIA_RULES } from './limits';

/** Its hosts from the configuration (`YOUTUBE_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
const hosts = (cfg: Config) => ({ authBase: cfg.YOUTUBE_AUTH_BASE, apiBase: cfg.YOUTUBE_API_BASE, uploadBase: cfg.YOUTUBE_UPLOAD_BASE });

/** YouTube: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const youtube: NetworkDescriptor = {
  name: 'youtube',
  displayName: 'YouTube',
  icon: { mark: 'YT', color: '#cc0000' },
  check: checkContent,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: true,
  options: ['thumbnail_url', 'playlist_id'],
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('youtube')
    : (require('./index') as typeof import('./index')).createYouTubeAdapter(hosts(cfg)),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('youtube')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createYouTubeVerifier(hosts(cfg)),
  oauth: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('youtube')
    : (require('./oauth') as typeof import('./oauth')).createYouTubeProvider(hosts(cfg)),
};
