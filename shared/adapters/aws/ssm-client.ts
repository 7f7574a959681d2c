import { SSMClient } from '@aws-sdk/client-ssm';
import { traceClient } from '../../tracing';

/**
 * The SSM Parameter Store client of the OAuth client registrations and Stripe's settings (named imports, so a bundle
 * keeps only the command the adapters send).
 */
export const ssmClient = (region: string): SSMClient => traceClient(new SSMClient({ region }));
