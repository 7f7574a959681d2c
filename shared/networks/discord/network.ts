import { defineNetwork } from '../descriptor';
import { checkDiscord, MEDIA_RULES, TEXT_RULE } from './limits';

/** Discord: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const discord = defineNetwork({
  name: 'discord',
  displayName: 'Discord',
  icon: { mark: 'D', color: '#4752c4' },
  check: checkDiscord,
  text: TEXT_RULE,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: false,
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createDiscordAdapter,
  verifier: (code) => code.createDiscordVerifier,
});
