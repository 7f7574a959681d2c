import { mockClient } from 'aws-sdk-client-mock';
import { GetParametersByPathCommand, SSMClient } from '@aws-sdk/client-ssm';
import { startTestTable, testDeps } from '../support/deps';
import { callOver, sampleEvent } from '../support/invoke';
import { StripePayments, priceTableFrom } from '../../shared/adapters/stripe/stripe-payments';
import { ssmBillingSettings } from '../../shared/adapters/aws/ssm-billing-settings';
import { handler as webhook } from '../../functions/http/post-billing-stripe-webhook';
import { TEST_PRICES, TEST_SECRET_KEY, TEST_WEBHOOK_SECRET, signedDelivery, stripeEvent } from '../fakes/stripe';

const call = callOver(() => t.deps);

let stop: () => Promise<void>;
let t: ReturnType<typeof testDeps>;
beforeAll(async () => {
  const started = await startTestTable();
  stop = started.stop;
  const payments = new StripePayments(async () => ({ secretKey: TEST_SECRET_KEY, webhookSecret: TEST_WEBHOOK_SECRET, prices: priceTableFrom((n) => (TEST_PRICES as Record<string, string>)[n]) }));
  t = testDeps(started.table, { payments }, { frozenClock: true });
});
afterAll(async () => { await stop(); });

describe('the webhook handler as Lambda invokes it', () => {
  const delivery = (encode: boolean) => {
    const event = stripeEvent('invoice.paid', { id: 'in_h', object: 'invoice', customer: 'cus_unknown', note: 'é ✓ non-ASCII bytes' }, Math.floor(t.clock.now() / 1000));
    const { payload, signature } = signedDelivery(event, { timestampSec: Math.floor(t.clock.now() / 1000) });
    return sampleEvent('http/post-billing-stripe-webhook.json', {
      headers: { 'stripe-signature': signature },
      body: encode ? Buffer.from(payload).toString('base64') : payload, isBase64Encoded: encode,
    });
  };

  it('verifies the signature over the exact body bytes, text or base64-encoded by API Gateway', async () => {
    for (const encode of [false, true]) {
      const res = await call(webhook as never, delivery(encode));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ received: true, outcome: 'unknown_account' });
    }
  });

  it('the sample event (placeholder signature) is refused with 400 invalid_signature', async () => {
    const res = await call(webhook as never, sampleEvent('http/post-billing-stripe-webhook.json'));
    expect(res).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
  });
});

describe("Stripe's settings in AWS (SSM Parameter Store)", () => {
  it('reads the secret key, webhook secret and prices under the prefix, decrypted; no secret key = not configured', async () => {
    const ssm = mockClient(SSMClient);
    ssm.on(GetParametersByPathCommand).resolvesOnce({
      Parameters: [
        { Name: '/social-publishing/dev/stripe/STRIPE_SECRET_KEY', Value: 'sk_live_x' },
        { Name: '/social-publishing/dev/stripe/STRIPE_WEBHOOK_SECRET', Value: 'whsec_x' },
      ],
      NextToken: 'page2',
    }).resolvesOnce({ Parameters: [{ Name: '/social-publishing/dev/stripe/STRIPE_PRICE_PRO_YEAR', Value: 'price_py' }] });
    const settings = await ssmBillingSettings(new SSMClient({ region: 'us-east-1' }), '/social-publishing/dev/stripe/');
    expect(settings).toEqual({ secretKey: 'sk_live_x', webhookSecret: 'whsec_x', prices: { pro: { year: 'price_py' } } });
    const calls = ssm.commandCalls(GetParametersByPathCommand).map((c) => c.args[0].input);
    expect(calls).toEqual([
      { Path: '/social-publishing/dev/stripe', Recursive: false, WithDecryption: true },
      { Path: '/social-publishing/dev/stripe', Recursive: false, WithDecryption: true, NextToken: 'page2' },
    ]);
    ssm.reset();
    ssm.on(GetParametersByPathCommand).resolves({ Parameters: [{ Name: '/p/STRIPE_PRICE_PRO_YEAR', Value: 'price_py' }] });
    expect(await ssmBillingSettings(new SSMClient({ region: 'us-east-1' }), '/p')).toBeUndefined();
    ssm.restore();
  });
});
