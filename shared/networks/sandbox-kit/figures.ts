import { createHash } from 'node:crypto';

/**
 * Plausible, changing post figures for the simulators' analytics answers: each post gets its own size (from a hash
 * of its id) and its counts grow with the time since it was published here (`published`; else since the simulator
 * first reported it): fast in the first hours, then slower, so every refresh of `npm start` shows numbers that move.
 * Same id and time → same figures. `now` is the simulator's clock (a test sets a manual one).
 */
export class SimulatedFigures {
  private readonly since = new Map<string, number>();
  constructor(public now: () => number = Date.now) {}

  /** Counts start growing from now for this post (the simulator made it). */
  published(id: string): void {
    if (!this.since.has(id)) this.since.set(id, this.now());
  }

  /** The figures of a post now; `publishedAt` (ms) counts growth from then when the post was not `published` here. */
  of(id: string, publishedAt?: number): { views: number; reach: number; likes: number; comments: number; shares: number; quotes: number; saves: number; clicks: number } {
    const t = this.now();
    const since = this.since.get(id) ?? Math.min(publishedAt ?? t, t);
    this.since.set(id, since);
    const seed = createHash('sha256').update(id).digest();
    const size = 20 + (seed.readUInt16BE(0) % 400);
    // grows like log: about ×2 after an hour, ×3 after a day (minutes since published)
    const growth = 1 + Math.log1p(Math.max(0, t - since) / 60_000) / 2.5;
    const part = (byte: number, share: number) => Math.floor(size * growth * share * (0.5 + seed[byte] / 255));
    const views = part(2, 10);
    return {
      views, reach: Math.floor(views * 0.7), likes: part(3, 0.6), comments: part(4, 0.08), shares: part(5, 0.1),
      quotes: part(6, 0.02), saves: part(7, 0.05), clicks: part(8, 0.3),
    };
  }
}
