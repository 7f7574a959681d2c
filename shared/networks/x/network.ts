import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkContent, MEDIA_RULES, TEXT_RULE } from './limits';
import { xPostId } from './post-ref';

/** X: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const x = defineNetwork({
  name: 'x',
  displayName: 'X',
  icon: { mark: 'X', color: '#0a0a0a' },
  check: checkContent,
  text: TEXT_RULE,
  manage: { delete: true, edit: false },
  media: MEDIA_RULES,
  readBack: true,
  options: ['thread', 'first_comment', 'reply_to', 'quote', 'poll'],
  postRef: { names: (ref) => xPostId(ref) !== undefined, forms: 'an x.com/<user>/status/<id> link or a numeric post id' },
  config: CONFIG_KEYS,
  /** Its hosts from the configuration (`X_AUTH_BASE`, `_API_BASE`; unset = the real hosts). */
  settings: (cfg) => ({ authBase: cfg.X_AUTH_BASE, apiBase: cfg.X_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createXAdapter,
  verifier: (code) => code.createXVerifier,
  oauth: { pkce: true, renews: true, provider: (code) => code.createXProvider },
});
