import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkContent, MEDIA_RULES } from './limits';
import { mastodonStatusRef } from './post-ref';

/** Mastodon: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const mastodon: NetworkDescriptor = {
  name: 'mastodon',
  displayName: 'Mastodon',
  icon: { mark: 'M', color: '#563acc' },
  check: checkContent,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: true,
  options: ['thread', 'first_comment', 'reply_to'],
  postRef: { names: (ref) => mastodonStatusRef(ref) !== undefined, forms: 'a status link (https://<server>/@<user>/<id>) or a status id' },
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('mastodon')
    : (require('./index') as typeof import('./index')).createMastodonAdapter({ pollIntervalMs: cfg.MASTODON_POLL_MS }),
  verifier: () => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('mastodon')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createMastodonVerifier(),
};
