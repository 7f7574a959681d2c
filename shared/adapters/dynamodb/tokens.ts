import type { ConsumeResult, OneTimeToken, TokenStore } from '../../ports/store';
import type { TableRef } from './client';
import { and, cond } from './conditions';
import { entity, orUndefined, type Bound } from './entity';
import { keys } from './keys';

const token = entity({ key: keys.token, keyOf: (t: OneTimeToken) => keys.token(t.kind, t.hash) });

/** One-time tokens, stored by hash; consuming is a conditional update so a token works exactly once. */
export class DynamoTokenStore implements TokenStore {
  private readonly items: Bound<typeof token>;
  constructor(t: TableRef) { this.items = token.on(t); }

  put(t: OneTimeToken) {
    return this.items.put(t, { if: cond.absent });
  }

  peek(kind: string, hash: string): Promise<OneTimeToken | undefined> {
    return this.items.get(kind, hash);
  }

  async consume(kind: string, hash: string, nowMs: number): Promise<ConsumeResult> {
    const used = await orUndefined(this.items.updateAndRead([kind, hash], { set: { used_at: Math.floor(nowMs / 1000) } }, {
      // exists, not used yet, not expired
      if: and(cond.present, cond.unused, cond.live), values: { ':now': Math.floor(nowMs / 1000) },
    }));
    if (used) return { ok: true, token: used };
    const existing = await this.items.get(kind, hash);
    if (!existing) return { ok: false, reason: 'missing' };
    if (existing.used_at !== undefined) return { ok: false, reason: 'used' };
    return { ok: false, reason: 'expired' };
  }
}
