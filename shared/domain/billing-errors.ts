import { AppError, type AppErrorOptions } from './errors';

/** Billing is not configured here (no payment provider keys, or no price for that plan): 503 billing_unavailable. */
export class BillingUnavailableError extends AppError {
  constructor(message: string, options?: AppErrorOptions) {
    super(503, 'billing_unavailable', message, {
      ...options,
      details: {
        what: 'Payments are not set up on this server',
        fix: 'Ask the operator to configure Stripe (docs/operations.md, Billing); on a local server change the plan with POST /dev/plan {email, plan}',
        ...options?.details,
      },
    });
  }
}

/** A provider webhook whose signature is missing, wrong or too old: 400 invalid_signature, nothing changed. */
export class InvalidSignatureError extends AppError {
  constructor(message: string) { super(400, 'invalid_signature', message); }
}

/** The payment provider refused or did not answer: 502 billing_provider_error (nothing was changed here). */
export class BillingProviderError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(502, 'billing_provider_error', message, options); }
}
