import * as z from 'zod';
import { formatVersion } from '../../ports/format-version';
import type { Connection } from '../../ports/publishing';
import type { TokenSet } from '../../ports/oauth';
import type { Failure } from '../../ports/networks';
import { errorFields, log } from '../../log';
import { mapLimit } from '../../domain/map-limit';
import { recordExpiring } from '../connect-link/reconnect-notices';
import { connectionContext } from '../security/contexts';
import { freshCredentials, type FreshCredentialsDeps } from './credentials';
import { noticeMs, RENEW_AHEAD_MS, ROLL_AHEAD_MS, sweepPlan } from './health';

/**
 * The renewal sweep of connections: sign-ins are renewed BEFORE they lapse, not only when a post needs
 * them. Every 15 minutes (EventBridge Scheduler in AWS, the local timer poller locally) it reads the connections
 * whose sweep_at has come (the CONSWEEP index, shared/app/oauth/health.ts sweepPlan) and for each:
 * 1. re-reads the connection (consistent) and its tokens; a lost sign-in or a replaced connection is skipped;
 * 2. renewable tokens within RENEW_AHEAD_MS of expiry, or a refresh token within ROLL_AHEAD_MS of its end, are
 *    renewed through freshCredentials: under the refresh lock, so any number of concurrent sweeps (and workers)
 *    make one call to the network; the stored refresh token is kept unless the network sends a new one;
 * 3. a sign-in that lapses within the notice window (CONNECTION_EXPIRING_DAYS) records connection.expiring and
 *    emails the owner — once per lapse date (a conditional claim on the connection);
 * 4. a sign-in past its lapse that cannot be renewed is marked reauth_required (connection.reauth_required, once);
 * 5. a network that could not be reached marks the connection network_down until a renewal or check succeeds;
 * 6. the connection's next sweep_at is written from what is stored now.
 */

export const RENEWAL_SWEEP = { name: 'connection-renewal-sweep', cron: '*/15 * * * *', timezone: 'UTC' } as const;
export const RenewalSweepInput = z.object({ v: formatVersion, kind: z.literal('connection-sweep') });
/** Connections looked at per sweep; the rest wait for the next sweep, earliest first. */
export const RENEWAL_SWEEP_LIMIT = 200;
const CONCURRENCY = 4;

export type RenewalSweepDeps = FreshCredentialsDeps;

export async function sweepConnections(deps: RenewalSweepDeps, limit = RENEWAL_SWEEP_LIMIT): Promise<{ looked: number; renewed: number; notified: number; failed: number }> {
  const due = await deps.connections.dueForSweep(deps.clock.now(), limit);
  const totals = { looked: due.length, renewed: 0, notified: 0, failed: 0 };
  await mapLimit(due, CONCURRENCY, async (d) => {
    try {
      const c = await deps.connections.get(d.account_id, d.brand_id, d.platform);
      if (!c) return;
      const r = await sweepOne(deps, c);
      if (r.renewed) totals.renewed++;
      if (r.notified) totals.notified++;
    } catch (err) {
      totals.failed++;
      log.error('connection sweep: failed', { account_id: d.account_id, platform: d.platform, ...errorFields(err) });
    }
  });
  return totals;
}

async function tokensOf(deps: Pick<RenewalSweepDeps, 'cipher'>, c: Connection): Promise<TokenSet> {
  return JSON.parse(await deps.cipher.decrypt(c.tokens_enc!, connectionContext(c, 'tokens'))) as TokenSet;
}

/** One connection's sweep (steps 2–6 above). */
export async function sweepOne(deps: RenewalSweepDeps, c: Connection): Promise<{ renewed: boolean; notified: boolean }> {
  if (c.status === 'reauth_required' || !c.tokens_enc) {
    if (c.sweep_at !== undefined) await deps.connections.saveHealth(c, { lapses_at: c.lapses_at });
    return { renewed: false, notified: false };
  }
  const now = deps.clock.now();
  const provider = deps.oauth.providers[c.platform];
  const renewable = !!provider?.refresh;
  const tokens = await tokensOf(deps, c);
  const canRenew = renewable && !!tokens.refresh_token && (tokens.refresh_expires_at === undefined || tokens.refresh_expires_at > now);
  const accessDue = tokens.expires_at !== undefined && tokens.expires_at - now <= RENEW_AHEAD_MS;
  const rollDue = tokens.refresh_expires_at !== undefined && tokens.refresh_expires_at - now <= ROLL_AHEAD_MS;
  let renewed = false;
  let failure: Failure | undefined;
  if (canRenew && (accessDue || rollDue)) {
    // rolling: renew at once (force); an access token only when it is within the sweep's window
    const res = await freshCredentials(deps, c, { margin: RENEW_AHEAD_MS, force: rollDue && !accessDue, onRenewalFailure: (f) => { failure = f; } });
    if (!res.ok && res.failure.kind === 'reauth') return { renewed: false, notified: false };
    renewed = res.ok && !failure;
  } else if (!canRenew && tokens.expires_at !== undefined && tokens.expires_at <= now) {
    // lapsed and not renewable: freshCredentials marks it reauth_required (once) with the event and the email
    await freshCredentials(deps, c);
    return { renewed: false, notified: false };
  }

  const current = await deps.connections.get(c.account_id, c.brand_id, c.platform);
  if (!current || current.id !== c.id || current.status === 'reauth_required' || !current.tokens_enc) return { renewed, notified: false };
  const latest = await tokensOf(deps, current);
  const notice = noticeMs(deps.settings);
  const plan = sweepPlan(latest, renewable, deps.clock.now(), notice, current.expiring_notified);
  let notified = false;
  if (plan.lapses_at !== undefined && plan.lapses_at > now && plan.lapses_at - now <= notice && current.expiring_notified !== plan.lapses_at) {
    if (await deps.connections.claimExpiringNotice(current, plan.lapses_at)) {
      await recordExpiring(deps, current, plan.lapses_at);
      notified = true;
    }
    // told (by us or another sweep): the next look is the renewal or the lapse itself
    Object.assign(plan, sweepPlan(latest, renewable, deps.clock.now(), notice, plan.lapses_at));
  }
  const down = failure && failure.kind !== 'reauth'
    ? { network_down_since: current.network_down_since ?? new Date(now).toISOString(), network_error: failure.error.slice(0, 500) }
    : renewed ? {} : { network_down_since: current.network_down_since, network_error: current.network_error };
  // a failed renewal is tried again at the next sweep (not only at the planned time)
  const sweep_at = failure ? Math.min(plan.sweep_at ?? Infinity, now + 15 * 60_000) : plan.sweep_at;
  await deps.connections.saveHealth(current, { lapses_at: plan.lapses_at, sweep_at, ...down });
  return { renewed, notified };
}
