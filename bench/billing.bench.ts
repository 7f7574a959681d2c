import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startLocalRuntime } from '../infra/local/runtime';
import { client, signup } from './support/api';
import { fmt, percentile, printRows } from './support/stats';
import { TEST_PRICES, TEST_SECRET_KEY, TEST_WEBHOOK_SECRET, signedDelivery, stripeEvent, subscriptionObject, invoiceObject } from '../test/fakes/stripe';

/**
 * Stripe webhook handling through the whole local runtime (HTTP → signature check over the raw body → event claim
 * → account state write under its version → history → claim done, on the embedded DynamoDB):
 * 1. p50/p99 of one delivery, sequentially (each one applies: the plan moves between two prices).
 * 2. 100 deliveries of distinct events at once (5 for each of 20 accounts): every one answered, every one applied
 *    exactly once (its claim is done, a replay of each is a duplicate, each account's version counts its writes).
 */
const SEQUENTIAL = 200;
const ACCOUNTS = 20;
const PER_ACCOUNT = 5;

async function deliver(base: string, event: unknown, nowSec: number) {
  const { payload, signature } = signedDelivery(event, { timestampSec: nowSec });
  const t = performance.now();
  const res = await fetch(`${base}/billing/stripe-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
  const body = await res.json() as Record<string, unknown>;
  return { ms: performance.now() - t, status: res.status, body };
}

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-billing-'));
  const rt = await startLocalRuntime({
    port: 0, dataDir: dir,
    env: { LOG_LEVEL: 'silent', DISABLE_RATE_LIMITS: '1', STRIPE_SECRET_KEY: TEST_SECRET_KEY, STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, ...TEST_PRICES },
  });
  try {
    const accounts: string[] = [];
    for (let i = 0; i < ACCOUNTS + 1; i++) {
      const key = await signup(rt.url, `billing-bench${i}@example.com`, 'free');
      const id = ((await client(rt.url, key)('GET', '/api/me')).body.account as { id: string }).id;
      await rt.deps.billing.saveCustomer(id, `cus_bench${i}`);
      accounts.push(id);
    }
    const now = Math.floor(Date.now() / 1000);
    const periodEnd = now + 30 * 86_400;

    // 1. sequential
    const times: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const price = i % 2 ? TEST_PRICES.STRIPE_PRICE_PRO_MONTH : TEST_PRICES.STRIPE_PRICE_AGENCY_MONTH;
      const r = await deliver(rt.url, stripeEvent('customer.subscription.updated', subscriptionObject({ id: 'sub_seq', customer: 'cus_bench0', price, periodEnd }), now + i), now);
      if (r.status !== 200 || r.body.outcome !== 'applied') throw new Error(`sequential delivery ${i}: ${r.status} ${JSON.stringify(r.body)}`);
      times.push(r.ms);
    }

    // 2. 100 at once
    const events = accounts.slice(1).flatMap((_, a) => Array.from({ length: PER_ACCOUNT }, (__, k) => {
      const customer = `cus_bench${a + 1}`;
      return k === PER_ACCOUNT - 1
        ? stripeEvent('invoice.paid', invoiceObject({ id: `in_${a}_${k}`, customer, subscription: `sub_${a}` }), now + k)
        : stripeEvent(k === 0 ? 'customer.subscription.created' : 'customer.subscription.updated', subscriptionObject({ id: `sub_${a}`, customer, price: [TEST_PRICES.STRIPE_PRICE_STARTER_MONTH, TEST_PRICES.STRIPE_PRICE_PRO_MONTH, TEST_PRICES.STRIPE_PRICE_AGENCY_MONTH, TEST_PRICES.STRIPE_PRICE_SCALE_MONTH][k], periodEnd }), now + k);
    }));
    const t0 = performance.now();
    const results = await Promise.all(events.map((e) => deliver(rt.url, e, now)));
    const wall = performance.now() - t0;
    const notOk = results.filter((r) => r.status !== 200 || !['applied', 'stale'].includes(String(r.body.outcome)));
    const replays = await Promise.all(events.map((e) => deliver(rt.url, e, now)));
    const notDuplicate = replays.filter((r) => r.body.duplicate !== true).length;
    const deps = rt.deps;
    let wrongPlans = 0;
    let writes = 0;
    for (const id of accounts.slice(1)) {
      const acc = await deps.accounts.get(id);
      if (acc?.plan !== 'scale') wrongPlans++;
      writes += acc?.billing_version ?? 0;
    }
    const applied = results.filter((r) => r.body.outcome === 'applied').length;
    console.log('\n## Stripe webhook (local runtime, embedded DynamoDB)');
    printRows([
      [`one delivery, sequential (n=${SEQUENTIAL})`, `p50 ${fmt(percentile(times, 50))} ms, p99 ${fmt(percentile(times, 99))} ms`],
      [`${events.length} distinct events at once (${ACCOUNTS} accounts × ${PER_ACCOUNT})`, `all answered in ${fmt(wall, 0)} ms; per delivery p50 ${fmt(percentile(results.map((r) => r.ms), 50))} ms, p99 ${fmt(percentile(results.map((r) => r.ms), 99))} ms`],
      ['  outcomes', `${applied} applied, ${results.length - applied - notOk.length} stale (older than a state already applied), ${notOk.length} failed`],
      ['  applied once', `${writes} state writes for ${applied} applied events; replay of all ${events.length}: ${events.length - notDuplicate} duplicates, ${notDuplicate} re-applied`],
      ['  final plans', `${ACCOUNTS - wrongPlans}/${ACCOUNTS} accounts on scale (the newest state)`],
    ]);
    if (notOk.length || notDuplicate || wrongPlans || writes !== applied) throw new Error('billing bench: an invariant failed (see figures)');
  } finally {
    await rt.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
