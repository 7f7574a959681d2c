import type { Config } from '../../config';
import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkReddit } from './limits';

/** Its hosts from the configuration (`REDDIT_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
const hosts = (cfg: Config) => ({ authBase: cfg.REDDIT_AUTH_BASE, apiBase: cfg.REDDIT_API_BASE });

/** Reddit: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const reddit: NetworkDescriptor = {
  name: 'reddit',
  displayName: 'Reddit',
  icon: { mark: 'R', color: '#c23b00' },
  check: checkReddit,
  manage: { delete: true, edit: true },
  readBack: true,
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('reddit')
    : (require('./index') as typeof import('./index')).createRedditAdapter(hosts(cfg)),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('reddit')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createRedditVerifier(hosts(cfg)),
  oauth: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('reddit')
    : (require('./oauth') as typeof import('./oauth')).createRedditProvider(hosts(cfg)),
};
