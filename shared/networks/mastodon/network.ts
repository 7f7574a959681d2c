import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkContent, MEDIA_RULES, TEXT_RULE } from './limits';
import { mastodonStatusRef } from './post-ref';

/** Mastodon: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const mastodon = defineNetwork({
  name: 'mastodon',
  displayName: 'Mastodon',
  icon: { mark: 'M', color: '#563acc' },
  check: checkContent,
  text: TEXT_RULE,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: true,
  options: ['thread', 'first_comment', 'reply_to'],
  postRef: { names: (ref) => mastodonStatusRef(ref) !== undefined, forms: 'a status link (https://<server>/@<user>/<id>) or a status id' },
  config: CONFIG_KEYS,
  settings: (cfg) => ({ pollIntervalMs: cfg.MASTODON_POLL_MS }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createMastodonAdapter,
  verifier: (code) => code.createMastodonVerifier,
});
