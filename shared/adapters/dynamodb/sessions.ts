import type { DashboardSession, SessionStore } from '../../ports/sessions';
import type { TableRef } from './client';
import { cond } from './conditions';
import { entity, type Bound } from './entity';
import { keys } from './keys';

const session = entity({ key: keys.session, keyOf: (s: DashboardSession) => keys.session(s.hash) });

/** Dashboard sessions in the single table, one item per session hash, expiring through the TTL attribute. */
export class DynamoSessionStore implements SessionStore {
  private readonly items: Bound<typeof session>;
  constructor(t: TableRef) { this.items = session.on(t); }

  create(s: DashboardSession) {
    return this.items.put(s, { if: cond.absent });
  }

  async get(hash: string, nowMs: number): Promise<DashboardSession | undefined> {
    const s = await this.items.get(hash);
    return s && s.expires_at * 1000 > nowMs ? s : undefined;
  }

  revoke(hash: string) {
    return this.items.delete([hash]);
  }
}
