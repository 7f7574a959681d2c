import { GetParametersByPathCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { priceTableFrom, type StripeSettings } from '../stripe/stripe-payments';
import { trimBase } from '../../domain/values';

/**
 * Stripe's settings from SSM Parameter Store: SecureString parameters under the billing prefix named like the local
 * environment variables (`<prefix>/STRIPE_SECRET_KEY`, `<prefix>/STRIPE_WEBHOOK_SECRET`,
 * `<prefix>/STRIPE_PRICE_PRO_YEAR`, …), read with one paged GetParametersByPath. The secrets never sit in a Lambda
 * environment variable. Undefined (billing not configured) when the secret key is absent.
 */
export async function ssmBillingSettings(client: SSMClient, prefix: string): Promise<StripeSettings | undefined> {
  const root = trimBase(prefix);
  const values = new Map<string, string>();
  let next: string | undefined;
  do {
    const page = await client.send(new GetParametersByPathCommand({ Path: root, Recursive: false, WithDecryption: true, ...(next ? { NextToken: next } : {}) }));
    for (const p of page.Parameters ?? []) if (p.Name && p.Value) values.set(p.Name.slice(root.length + 1), p.Value);
    next = page.NextToken;
  } while (next);
  const secretKey = values.get('STRIPE_SECRET_KEY');
  if (!secretKey) return undefined;
  return { secretKey, webhookSecret: values.get('STRIPE_WEBHOOK_SECRET'), prices: priceTableFrom((name) => values.get(name)) };
}
