import type { Config } from '../../config';
import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkPinterest, MEDIA_RULES } from './limits';

/** Its hosts from the configuration (`PINTEREST_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
const hosts = (cfg: Config) => ({ authBase: cfg.PINTEREST_AUTH_BASE, apiBase: cfg.PINTEREST_API_BASE });

/** Pinterest: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const pinterest: NetworkDescriptor = {
  name: 'pinterest',
  displayName: 'Pinterest',
  icon: { mark: 'P', color: '#bd081c' },
  accountNoun: 'default board',
  check: checkPinterest,
  media: MEDIA_RULES,
  readBack: true,
  options: ['thumbnail_url', 'board_id', 'link'],
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('pinterest')
    : (require('./index') as typeof import('./index')).createPinterestAdapter(hosts(cfg)),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('pinterest')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createPinterestVerifier(hosts(cfg)),
  oauth: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('pinterest')
    : (require('./oauth') as typeof import('./oauth')).createPinterestProvider(hosts(cfg)),
};
