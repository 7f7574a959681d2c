import type { Config } from '../../config';
import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkContent, MEDIA_RULES } from './limits';
import { xPostId } from './post-ref';

/** Its hosts from the configuration (`X_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
const hosts = (cfg: Config) => ({ authBase: cfg.X_AUTH_BASE, apiBase: cfg.X_API_BASE });

/** X: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const x: NetworkDescriptor = {
  name: 'x',
  displayName: 'X',
  icon: { mark: 'X', color: '#0a0a0a' },
  check: checkContent,
  manage: { delete: true, edit: false },
  media: MEDIA_RULES,
  readBack: true,
  options: ['thread', 'first_comment', 'reply_to', 'quote', 'poll'],
  postRef: { names: (ref) => xPostId(ref) !== undefined, forms: 'an x.com/<user>/status/<id> link or a numeric post id' },
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('x')
    : (require('./index') as typeof import('./index')).createXAdapter(hosts(cfg)),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('x')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createXVerifier(hosts(cfg)),
  oauth: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('x')
    : (require('./oauth') as typeof import('./oauth')).createXProvider(hosts(cfg)),
};
