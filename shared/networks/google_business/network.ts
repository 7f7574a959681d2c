import type { Config } from '../../config';
import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkGoogleBusiness, MEDIA_RULES } from './limits';

/** Its hosts from the configuration (`GOOGLE_BUSINESS_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
const hosts = (cfg: Config) => ({ authBase: cfg.GOOGLE_BUSINESS_AUTH_BASE, apiBase: cfg.GOOGLE_BUSINESS_API_BASE });

/** Google Business Profile: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const google_business: NetworkDescriptor = {
  name: 'google_business',
  displayName: 'Google Business Profile',
  icon: { mark: 'G', color: '#1765cc' },
  accountNoun: 'location',
  check: checkGoogleBusiness,
  media: MEDIA_RULES,
  readBack: true,
  options: ['event', 'offer', 'call_to_action'],
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('google_business')
    : (require('./index') as typeof import('./index')).createGoogleBusinessAdapter(hosts(cfg)),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('google_business')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createGoogleBusinessVerifier(hosts(cfg)),
  oauth: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('google_business')
    : (require('./oauth') as typeof import('./oauth')).createGoogleBusinessProvider(hosts(cfg)),
};
