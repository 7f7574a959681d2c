import { ErrorBody } from '../../shared/api/schemas';

/** An error response of the route table: the standard `{error, code, ...}` body. */
export const E = (description: string) => ({ description, schema: ErrorBody });
/** The answers every key route may give. */
export const std = { 401: E('Missing, unknown, expired or revoked API key'), 429: E('Rate limited (Retry-After)') };
