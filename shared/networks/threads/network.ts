import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkThreads, MEDIA_RULES, TEXT_RULE } from './limits';

/** Threads: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const threads = defineNetwork({
  name: 'threads',
  displayName: 'Threads',
  icon: { mark: '@', color: '#0a0a0a' },
  check: checkThreads,
  text: TEXT_RULE,
  media: MEDIA_RULES,
  readBack: true,
  options: ['first_comment', 'reply_to', 'topic_tag'],
  postRef: { names: (ref) => /^[0-9]{5,30}$/.test(ref), forms: 'the media id of the Threads post (digits; a threads.net link names a shortcode the API cannot reply to)' },
  config: CONFIG_KEYS,
  /** Its hosts from the configuration (`THREADS_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
  settings: (cfg) => ({ authBase: cfg.THREADS_AUTH_BASE, apiBase: cfg.THREADS_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createThreadsAdapter,
  verifier: (code) => code.createThreadsVerifier,
  oauth: { pkce: false, renews: true, provider: (code) => code.createThreadsProvider },
});
