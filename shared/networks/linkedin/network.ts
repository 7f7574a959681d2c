import type { Config } from '../../config';
import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkLinkedin, MEDIA_RULES } from './limits';

/** Its hosts from the configuration (`LINKEDIN_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
const hosts = (cfg: Config) => ({ authBase: cfg.LINKEDIN_AUTH_BASE, apiBase: cfg.LINKEDIN_API_BASE, organizations: cfg.LINKEDIN_ORGANIZATIONS, postAnalytics: cfg.LINKEDIN_POST_ANALYTICS });

/** Linkedin: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const linkedin: NetworkDescriptor = {
  name: 'linkedin',
  displayName: 'LinkedIn',
  icon: { mark: 'in', color: '#0a66c2' },
  check: checkLinkedin,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: true,
  options: ['first_comment', 'document'],
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('linkedin')
    : (require('./index') as typeof import('./index')).createLinkedinAdapter(hosts(cfg)),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('linkedin')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createLinkedinVerifier(hosts(cfg)),
  oauth: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('linkedin')
    : (require('./oauth') as typeof import('./oauth')).createLinkedinProvider(hosts(cfg)),
};
