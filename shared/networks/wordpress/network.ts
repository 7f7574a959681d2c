import { defineNetwork } from '../descriptor';
import { checkWordpress, MEDIA_RULES, TEXT_RULE } from './limits';

/** Wordpress: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const wordpress = defineNetwork({
  name: 'wordpress',
  displayName: 'WordPress',
  icon: { mark: 'W', color: '#21759b' },
  check: checkWordpress,
  text: TEXT_RULE,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: true,
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createWordpressAdapter,
  verifier: (code) => code.createWordpressVerifier,
});
