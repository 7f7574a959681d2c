import type { Config } from '../../config';
import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkFacebook } from './limits';

/** Its hosts from the configuration (`FACEBOOK_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
const hosts = (cfg: Config) => ({ authBase: cfg.FACEBOOK_AUTH_BASE, apiBase: cfg.FACEBOOK_API_BASE });

/** Facebook: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const facebook: NetworkDescriptor = {
  name: 'facebook',
  displayName: 'Facebook',
  icon: { mark: 'f', color: '#0b5ed7' },
  accountNoun: 'Page',
  check: checkFacebook,
  manage: { delete: true, edit: true },
  readBack: true,
  options: ['first_comment', 'reel'],
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('facebook')
    : (require('./index') as typeof import('./index')).createFacebookAdapter(hosts(cfg)),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('facebook')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createFacebookVerifier(hosts(cfg)),
  oauth: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('facebook')
    : (require('./oauth') as typeof import('./oauth')).createFacebookProvider(hosts(cfg)),
};
