import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startTestTable, testDeps, type ManualClock, type TestTable } from '../support/deps';
import { signup, confirmSignup } from '../../shared/app/signup';
import { BRAND_RESERVATION_LEASE_MS, createBrand } from '../../shared/app/brands';
import { DynamoAccountStore } from '../../shared/adapters/dynamodb/accounts';
import { DynamoBrandStore } from '../../shared/adapters/dynamodb/brands';
import { PLANS } from '../../shared/domain/plans';
import type { Deps } from '../../shared/app/deps';
import type { Account } from '../../shared/ports/store';

/**
 * A brand is two writes (the place on the account's brand counter, then the brand item) and the table may
 * die between them. The table here answers the first `n` calls of a request and then refuses everything (a
 * document-client wrapper), as a table that goes away mid-request does. No orphan may hold a place for good: a
 * reservation left pending is reclaimed once its lease is over, exactly once under concurrency (embedded DynamoDB).
 */
let table: TestTable;
let stop: () => Promise<void>;
let deps: Deps;
let clock: ManualClock;
let mail: ReturnType<typeof testDeps>;

beforeAll(async () => {
  ({ table, stop } = await startTestTable());
  const t = testDeps(table, {}, { frozenClock: true });
  deps = t.deps;
  clock = t.clock as ManualClock;
  mail = t;
});
afterAll(() => stop());

let n = 0;
async function starterAccount(): Promise<Account> {
  const email = `brands${++n}@example.com`;
  await signup(deps, { email, ip: `198.51.100.${n}` });
  const { account } = await confirmSignup(deps, new URL(mail.mailer.sent.at(-1)!.links[0]).searchParams.get('token')!);
  await deps.accounts.setPlan(account.id, 'starter');
  return (await deps.accounts.get(account.id))!;
}

/** Deps whose table answers the first `answered` calls, then fails every call as an unreachable table does. */
function dyingTable(answered: number): Deps {
  let calls = 0;
  const doc = {
    send: (command: unknown) => (++calls <= answered
      ? table.doc.send(command as Parameters<DynamoDBDocumentClient['send']>[0])
      : Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' }))),
  } as unknown as DynamoDBDocumentClient;
  const dying = { doc, tableName: table.tableName };
  return { ...deps, accounts: new DynamoAccountStore(dying), brands: new DynamoBrandStore(dying) };
}

const state = async (account: Account) => ({
  count: (await deps.accounts.get(account.id))!.brand_count,
  brands: (await deps.brands.list(account.id)).length,
  pending: (await deps.accounts.pendingBrands(account.id)).length,
});
const limitReached = { status: 400, code: 'brand_limit_reached' };

describe('brand creation when the table dies between its writes', () => {
  it('dies after the reservation: the orphan place is reclaimed once its lease is over, then the plan holds exactly its brands', async () => {
    const acc = await starterAccount();
    expect(PLANS.starter.brands).toBe(3);
    // the reservation is written; the brand write, the look-up and the give-back all fail
    await expect(createBrand(dyingTable(1), acc, 'Lost')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(await state(acc)).toEqual({ count: 2, brands: 1, pending: 1 });

    await createBrand(deps, acc, 'Second');
    // a third brand would fit, but the orphan holds its place while its request may still be running
    await expect(createBrand(deps, acc, 'Third')).rejects.toMatchObject(limitReached);
    clock.advance(BRAND_RESERVATION_LEASE_MS - 1_000);
    await expect(createBrand(deps, acc, 'Third')).rejects.toMatchObject(limitReached);

    clock.advance(2_000);
    const third = await createBrand(deps, acc, 'Third');
    expect(third.name).toBe('Third');
    expect(await state(acc)).toEqual({ count: 3, brands: 3, pending: 0 });
    await expect(createBrand(deps, acc, 'Fourth')).rejects.toMatchObject(limitReached);
    expect(await state(acc)).toEqual({ count: 3, brands: 3, pending: 0 });
  });

  it('the brand write fails but the table answers again at once: the place is given back straight away', async () => {
    const acc = await starterAccount();
    let calls = 0;
    const flaky: Deps = {
      ...deps,
      brands: Object.assign(Object.create(deps.brands), {
        create: async () => { calls++; throw Object.assign(new Error('Throughput exceeded'), { name: 'ProvisionedThroughputExceededException' }); },
      }),
    };
    await expect(createBrand(flaky, acc, 'Throttled')).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    expect(calls).toBe(1);
    expect(await state(acc)).toEqual({ count: 1, brands: 1, pending: 0 });
  });

  it('dies after the brand write: the brand keeps its place (never given back twice), the pending mark is cleared later', async () => {
    const acc = await starterAccount();
    // reservation and brand written; the settle fails (the request still answers the brand)
    const kept = await createBrand(dyingTable(2), acc, 'Kept');
    expect(await deps.brands.get(acc.id, kept.id)).toMatchObject({ name: 'Kept' });
    expect(await state(acc)).toEqual({ count: 2, brands: 2, pending: 1 });

    await createBrand(deps, acc, 'Third');
    clock.advance(BRAND_RESERVATION_LEASE_MS + 1_000);
    await expect(createBrand(deps, acc, 'Fourth')).rejects.toMatchObject(limitReached);
    expect(await state(acc)).toEqual({ count: 3, brands: 3, pending: 0 });
  });

  it('racing requests reclaim each dead reservation once: exactly the plan\'s brands in the end', async () => {
    const acc = await starterAccount();
    for (const name of ['Lost 1', 'Lost 2']) await expect(createBrand(dyingTable(1), acc, name)).rejects.toThrow();
    expect(await state(acc)).toEqual({ count: 3, brands: 1, pending: 2 });
    clock.advance(BRAND_RESERVATION_LEASE_MS + 1_000);

    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => createBrand(deps, acc, `Racer ${i}`)));
    const made = outcomes.filter((o) => o.status === 'fulfilled').length;
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(made).toBeGreaterThanOrEqual(1);
    expect(made).toBeLessThanOrEqual(2);
    for (const r of refused) expect(r.reason).toMatchObject(limitReached);
    expect(await state(acc)).toEqual({ count: 1 + made, brands: 1 + made, pending: 0 });
    // the places the orphans held are all back: the account fills up to exactly the plan's brands
    while ((await state(acc)).brands < 3) await createBrand(deps, acc, 'Filler');
    await expect(createBrand(deps, acc, 'One too many')).rejects.toMatchObject(limitReached);
    expect(await state(acc)).toEqual({ count: 3, brands: 3, pending: 0 });
  });
});
