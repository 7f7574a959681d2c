/**
 * Whether an error means a backing service (DynamoDB, KMS, SQS, S3, Scheduler, SSM) could not be reached or
 * throttled, rather than a bug: such requests answer 503 with Retry-After (spec §7) instead of 500. Looks at the
 * AWS SDK error name, its HTTP status and retry hints, and socket error codes, along the `cause` chain.
 */
const OUTAGE_NAMES = new Set([
  'ThrottlingException', 'Throttling', 'ThrottledException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded',
  'TooManyRequestsException', 'RequestThrottled', 'RequestThrottledException', 'SlowDown', 'LimitExceededException',
  'ServiceUnavailable', 'ServiceUnavailableException', 'InternalServerError', 'InternalFailure', 'InternalError',
  'KMSInternalException', 'DependencyTimeoutException', 'KeyUnavailableException', 'TimeoutError', 'RequestTimeout',
  'RequestTimeoutException', 'NetworkingError',
]);
const SOCKET_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH',
  'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT',
]);

/** Seconds a client should wait before retrying after an outage answer. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

export function isOutage(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { name?: unknown; code?: unknown; $metadata?: { httpStatusCode?: number }; $retryable?: { throttling?: boolean }; cause?: unknown; errors?: unknown[] };
  if (typeof e.name === 'string' && OUTAGE_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || OUTAGE_NAMES.has(e.code))) return true;
  if (e.$retryable?.throttling) return true;
  // a socket error the SDK could not attach a response to: "AWS SDK error wrapper for Error: connect ECONNREFUSED …"
  if (err instanceof Error && err.message.startsWith('AWS SDK error wrapper for') && [...SOCKET_CODES].some((c) => err.message.includes(c))) return true;
  const status = e.$metadata?.httpStatusCode;
  if (typeof status === 'number' && status >= 500) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isOutage(x, depth + 1))) return true;
  return isOutage(e.cause, depth + 1);
}
