import type { Config } from '../../config';
import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkContent, MEDIA_RULES } from './limits';

/** Its hosts from the configuration (`TIKTOK_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
const hosts = (cfg: Config) => ({ authBase: cfg.TIKTOK_AUTH_BASE, apiBase: cfg.TIKTOK_API_BASE });

/** TikTok: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const tiktok: NetworkDescriptor = {
  name: 'tiktok',
  displayName: 'TikTok',
  icon: { mark: 'Tt', color: '#0a0a0a' },
  check: checkContent,
  media: MEDIA_RULES,
  readBack: false,
  options: ['privacy_level'],
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('tiktok')
    : (require('./index') as typeof import('./index')).createTikTokAdapter(hosts(cfg)),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('tiktok')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createTikTokVerifier(hosts(cfg)),
  oauth: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('tiktok')
    : (require('./oauth') as typeof import('./oauth')).createTikTokProvider(hosts(cfg)),
};
