import type { PaceStore } from '../../ports/publishing';
import type { TableRef } from './client';
import { cond } from './conditions';
import { conditional, entity, type Bound } from './entity';
import { keys } from './keys';

/** A pace item: the key's next free slot (ms), kept an hour past it. */
const pace = entity({
  key: keys.pace,
  keyOf: (p: { key: string; next_at: number; expires_at: number }) => keys.pace(p.key),
  keyOnly: ['key'],
});

/**
 * Per-key spacing across workers and instances (Telegram chats): an item holds the next free slot; a caller reads
 * it and moves it forward with a conditional write on the value it read, retrying when another caller won.
 */
export class DynamoPaceStore implements PaceStore {
  private readonly slots: Bound<typeof pace>;
  constructor(t: TableRef) { this.slots = pace.on(t); }

  async reserve(key: string, spacingMs: number, nowMs: number): Promise<number> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const found = await this.slots.get(key);
      const next = found ? Number(found.next_at) : undefined;
      const slot = Math.max(nowMs, next ?? 0);
      const moved = { next_at: slot + spacingMs, expires_at: Math.ceil((slot + spacingMs) / 1000) + 3600 };
      const won = next === undefined
        ? await conditional(this.slots.put({ key, ...moved }, { if: cond.absent }))
        // nobody moved the slot since we read it
        : await conditional(this.slots.update([key], { set: moved }, { if: 'next_at = :seen', values: { ':seen': next } }));
      if (won) return slot;
    }
    throw new Error(`pace: too much contention on ${key}`);
  }
}
