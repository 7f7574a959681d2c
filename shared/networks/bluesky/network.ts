import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkBluesky, MEDIA_RULES, TEXT_RULE } from './limits';
import { blueskyPostRef } from './post-ref';

/** Bluesky: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const bluesky = defineNetwork({
  name: 'bluesky',
  displayName: 'Bluesky',
  icon: { mark: 'Bs', color: '#0560d6' },
  check: checkBluesky,
  text: TEXT_RULE,
  manage: { delete: true, edit: false },
  media: MEDIA_RULES,
  readBack: true,
  options: ['thread', 'first_comment', 'reply_to', 'quote', 'link_card'],
  postRef: { names: (ref) => blueskyPostRef(ref) !== undefined, forms: 'a https://bsky.app/profile/<handle>/post/<id> link or an at:// post URI' },
  config: CONFIG_KEYS,
  settings: (cfg) => ({ apiBase: cfg.BLUESKY_API_BASE, videoBase: cfg.BLUESKY_VIDEO_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createBlueskyAdapter,
  verifier: (code) => code.createBlueskyVerifier,
});
