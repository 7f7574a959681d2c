import type { Config } from '../../config';
import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkInstagram, MEDIA_RULES } from './limits';

/** Its hosts from the configuration: it signs in through Facebook Login (`INSTAGRAM_AUTH_BASE`) and posts through the Graph API (`FACEBOOK_API_BASE`). */
const hosts = (cfg: Config) => ({ authBase: cfg.INSTAGRAM_AUTH_BASE, apiBase: cfg.FACEBOOK_API_BASE });

/** Instagram: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const instagram: NetworkDescriptor = {
  name: 'instagram',
  displayName: 'Instagram',
  icon: { mark: 'Ig', color: '#b52f7a' },
  accountNoun: 'business account',
  check: checkInstagram,
  media: MEDIA_RULES,
  readBack: true,
  options: ['first_comment', 'story'],
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('instagram')
    : (require('./index') as typeof import('./index')).createInstagramAdapter(hosts(cfg)),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('instagram')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createInstagramVerifier(hosts(cfg)),
  oauth: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('instagram')
    : (require('./oauth') as typeof import('./oauth')).createInstagramProvider(hosts(cfg)),
};
