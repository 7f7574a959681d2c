import { networkCodeNotWired, sendCodeNotWired, type NetworkDescriptor } from '../descriptor';
import { checkTelegram, MEDIA_RULES } from './limits';
import { telegramMessageRef } from './post-ref';

/** Telegram: its facts and the loaders of its code (shared/networks/descriptor.ts). */
export const telegram: NetworkDescriptor = {
  name: 'telegram',
  displayName: 'Telegram',
  icon: { mark: 'Tg', color: '#1d6fa5' },
  check: checkTelegram,
  manage: { delete: true, edit: true },
  media: MEDIA_RULES,
  readBack: false,
  options: ['reply_to'],
  postRef: { names: (ref) => telegramMessageRef(ref) !== undefined, forms: 'a t.me/<chat>/<message id> link or a message id of the connected chat' },
  adapter: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off' ? sendCodeNotWired('telegram')
    : (require('./index') as typeof import('./index')).createTelegramAdapter({ apiBase: cfg.TELEGRAM_API_BASE }),
  verifier: (cfg) => process.env.SPA_WIRE_NETWORKS === 'off' ? networkCodeNotWired('telegram')
    : (require('./verify-credentials') as typeof import('./verify-credentials')).createTelegramVerifier({ apiBase: cfg.TELEGRAM_API_BASE }),
};
