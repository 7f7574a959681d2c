import { client, signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';
import { signedDelivery, stripeEvent } from '../fakes/stripe';
import { signInThroughOutbox } from '../support/dashboard';

/** A local server without Stripe configured (the default): billing answers 503 and points at /dev/plan. */
let rt: LocalRuntime;
beforeAll(async () => { rt = await startRuntime(); });
afterAll(() => rt?.stop());

describe('billing without Stripe configured', () => {
  it('checkout, portal and the webhook answer 503 billing_unavailable naming /dev/plan; /dev/plan changes are recorded', async () => {
    const key = await signupThroughApi(rt.url, 'nobilling@example.com');
    const api = client(rt.url, key);
    for (const [path, body] of [['/api/billing/checkout', { plan: 'pro' }], ['/api/billing/portal', undefined]] as const) {
      const res = await api('POST', path, body);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'billing_unavailable', error: expect.any(String), fix: expect.stringContaining('/dev/plan') });
    }
    const { payload, signature } = signedDelivery(stripeEvent('invoice.paid', { id: 'in_1', object: 'invoice', customer: 'cus_1' }, Math.floor(Date.now() / 1000)));
    const hook = await fetch(`${rt.url}/billing/stripe-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    expect(hook.status).toBe(503);

    expect((await api('GET', '/api/billing')).body).toMatchObject({ plan: 'free', billing_available: false, subscription: null, changes: [] });
    expect((await client(rt.url)('POST', '/dev/plan', { email: 'nobilling@example.com', plan: 'agency' })).status).toBe(200);
    const after = await api('GET', '/api/billing');
    expect(after.body).toMatchObject({ plan: 'agency', changes: [{ from: 'free', to: 'agency', by: 'dev', reason: 'set_without_billing' }] });
  });

  it('the Plan page says payments are not set up and names /dev/plan; its checkout button answers 503 with the reason', async () => {
    await signupThroughApi(rt.url, 'nobilling-page@example.com');
    const session = await signInThroughOutbox(rt.url, 'nobilling-page@example.com');
    const page = await session.get('/dashboard/plan');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Payments are not set up on this server.');
    expect(html).toContain('/dev/plan');
    const refused = await session.post('/dashboard/plan/checkout', { plan: 'pro' });
    expect(refused.status).toBe(503);
    expect(await refused.text()).toMatch(/role="alert">Billing is not configured on this server\..*\/dev\/plan/);
  });
});
