import type { Deps } from '../deps';
import type { Brand } from '../../ports/store';
import { AppError } from '../../domain/errors';
import { isSlotInstant, slotInstants, SLOT_HORIZON_DAYS } from '../../domain/slots';

/** Slot claims stay a day past their instant (TTL removes them; by then the slot is in the past anyway). */
const CLAIM_KEEP_SEC = 86_400;
/** Taken slots are read from the table in windows of this many days as the search moves on. */
const WINDOW_DAYS = 31;

/**
 * next_slot (decisions.md "Scheduling"): the first of the brand's slots after now not already taken by a scheduled
 * post of that brand. Taking a slot is a conditional write of a slot-claim item (brand + instant), so two requests
 * racing for the same slot get different ones. One finder serves one request: successive calls for a brand (bulk
 * rows) continue after the slot the previous call took, so the rows fill successive free slots.
 */
export class SlotFinder {
  private readonly after = new Map<string, number>();
  private readonly windows = new Map<string, { until: number; taken: Set<string> }>();

  constructor(private readonly deps: Pick<Deps, 'slots'>, private readonly nowMs: number) {}

  /** Claims the brand's next free slot for `holder` (a schedule id); 400 no_free_slot when none is left in reach. */
  async take(brand: Brand, holder: string): Promise<Date> {
    const nowSec = Math.floor(this.nowMs / 1000);
    for (const at of slotInstants(brand.timezone, brand.slots, this.after.get(brand.id) ?? this.nowMs)) {
      if (await this.isTaken(brand.id, at.getTime())) continue;
      const instant = at.toISOString();
      if (await this.deps.slots.claim(brand.id, instant, holder, Math.floor(at.getTime() / 1000) + CLAIM_KEEP_SEC, nowSec)) {
        this.after.set(brand.id, at.getTime());
        return at;
      }
    }
    throw new AppError(400, 'no_free_slot', `Brand ${brand.name} has no free posting slot in the next ${SLOT_HORIZON_DAYS} days; add slots with PATCH /api/brands/{id} or send a run_at`);
  }

  /**
   * A post scheduled at an explicit time that is one of the brand's slots takes that slot too (if free), so
   * next_slot skips it. Answers the instant claimed, if any.
   */
  async takeIfSlot(brand: Brand, at: Date, holder: string): Promise<string | undefined> {
    if (!isSlotInstant(brand.timezone, brand.slots, at)) return undefined;
    const instant = at.toISOString();
    const ok = await this.deps.slots.claim(brand.id, instant, holder, Math.floor(at.getTime() / 1000) + CLAIM_KEEP_SEC, Math.floor(this.nowMs / 1000));
    return ok ? instant : undefined;
  }

  private async isTaken(brandId: string, atMs: number): Promise<boolean> {
    let w = this.windows.get(brandId);
    if (!w || atMs > w.until) {
      const from = w ? w.until : this.nowMs;
      const until = Math.max(atMs, from) + WINDOW_DAYS * 86_400_000;
      const taken = await this.deps.slots.taken(brandId, new Date(from).toISOString(), new Date(until).toISOString(), Math.floor(this.nowMs / 1000));
      w = { until, taken: new Set([...(w?.taken ?? []), ...taken]) };
      this.windows.set(brandId, w);
    }
    return w.taken.has(new Date(atMs).toISOString());
  }
}
