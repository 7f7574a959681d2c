import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkBluesky, MEDIA_RULES } from './limits';
import { blueskyPostRef } from './post-ref';

/** Bluesky: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const bluesky: NetworkDescriptor = {
  name: 'bluesky',
  displayName: 'Bluesky',
  icon: { mark: 'Bs', color: '#0560d6' },
  check: checkBluesky,
  manage: { delete: true, edit: false },
  media: MEDIA_RULES,
  readBack: true,
  options: ['thread', 'first_comment', 'reply_to', 'quote', 'link_card'],
  postRef: { names: (ref) => blueskyPostRef(ref) !== undefined, forms: 'a https://bsky.app/profile/<handle>/post/<id> link or an at:// post URI' },
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('bluesky')
    : (require('./index') as typeof import('./index')).createBlueskyAdapter({ apiBase: cfg.BLUESKY_API_BASE, videoBase: cfg.BLUESKY_VIDEO_BASE }),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('bluesky')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createBlueskyVerifier({ apiBase: cfg.BLUESKY_API_BASE }),
};
