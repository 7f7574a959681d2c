import type { Config } from '../../config';
import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkThreads, MEDIA_RULES } from './limits';

/** Its hosts from the configuration (`THREADS_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
const hosts = (cfg: Config) => ({ authBase: cfg.THREADS_AUTH_BASE, apiBase: cfg.THREADS_API_BASE });

/** Threads: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const threads: NetworkDescriptor = {
  name: 'threads',
  displayName: 'Threads',
  icon: { mark: '@', color: '#0a0a0a' },
  check: checkThreads,
  media: MEDIA_RULES,
  readBack: true,
  options: ['first_comment', 'reply_to'],
  postRef: { names: (ref) => /^[0-9]{5,30}$/.test(ref), forms: 'the media id of the Threads post (digits; a threads.net link names a shortcode the API cannot reply to)' },
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('threads')
    : (require('./index') as typeof import('./index')).createThreadsAdapter(hosts(cfg)),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('threads')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createThreadsVerifier(hosts(cfg)),
  oauth: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('threads')
    : (require('./oauth') as typeof import('./oauth')).createThreadsProvider(hosts(cfg)),
};
