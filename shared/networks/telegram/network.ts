import { defineNetwork } from '../descriptor';
import { CONFIG_KEYS } from './config-keys';
import { checkTelegram, MEDIA_RULES, TEXT_RULE } from './limits';
import { telegramMessageRef } from './post-ref';

/** Telegram: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const telegram = defineNetwork({
  name: 'telegram',
  displayName: 'Telegram',
  icon: { mark: 'Tg', color: '#1d6fa5' },
  check: checkTelegram,
  text: TEXT_RULE,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: false,
  options: ['reply_to'],
  postRef: { names: (ref) => telegramMessageRef(ref) !== undefined, forms: 'a t.me/<chat>/<message id> link or a message id of the connected chat' },
  config: CONFIG_KEYS,
  settings: (cfg) => ({ apiBase: cfg.TELEGRAM_API_BASE }),
  adapter: () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? undefined
    : (require('./index') as typeof import('./index')).createTelegramAdapter,
  verifier: (code) => code.createTelegramVerifier,
});
