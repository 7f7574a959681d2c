/**
 * One error base class with flat, named subclasses (Powertools style). Each carries the HTTP status and the
 * machine-readable code of spec §7; `details` become extra fields of the JSON error body. The HTTP error handler
 * exposes AppError messages and hides everything else behind a generic 500.
 */
export interface AppErrorOptions {
  code?: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(status: number, defaultCode: string, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = options.code ?? defaultCode;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  toBody(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...this.details };
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(400, 'invalid_request', message, options); }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'A valid API key is required: send Authorization: Bearer svc_live_...', options?: AppErrorOptions) {
    // RFC 9110 §11.6.1: a 401 names the scheme it wants
    // a caller's own challenge (e.g. the MCP server's resource_metadata) replaces the plain one, whatever its case
    const own = Object.keys(options?.headers ?? {}).some((h) => h.toLowerCase() === 'www-authenticate');
    super(401, 'unauthorized', message, { ...options, headers: { ...(own ? {} : { 'WWW-Authenticate': 'Bearer' }), ...options?.headers } });
  }
}
export class PlanFeatureError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(402, 'plan_feature', message, options); }
}
export class ForbiddenError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(403, 'forbidden', message, options); }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found', options?: AppErrorOptions) { super(404, 'not_found', message, options); }
}
export class MethodNotAllowedError extends AppError {
  constructor(message = 'Method not allowed', options?: AppErrorOptions) { super(405, 'method_not_allowed', message, options); }
}
export class ConflictError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(409, 'conflict', message, options); }
}
/** 409 duplicate_post: the idempotency_key or an identical request was seen within its window; `details` name the holder. */
export class DuplicatePostError extends AppError {
  constructor(message: string, details: { post_id?: string } | { schedule_id?: string }, options?: AppErrorOptions) { super(409, 'duplicate_post', message, { ...options, details }); }
}
export class GoneError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(410, 'gone', message, options); }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(413, 'too_large', message, options); }
}
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(415, 'unsupported_media_type', message, options); }
}
export class RateLimitedError extends AppError {
  readonly retryAfter: number;
  constructor(retryAfterSeconds: number, message = 'Too many requests: slow down and retry later', options?: AppErrorOptions) {
    const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, 'rate_limited', message, {
      ...options,
      details: { retry_after: retryAfter, ...options?.details },
      headers: { 'Retry-After': String(retryAfter), ...options?.headers },
    });
    this.retryAfter = retryAfter;
  }
}
/** 502: a network or sign-in provider answered, but not with what the request needs. */
export class BadGatewayError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(502, 'bad_gateway', message, options); }
}
/** 500 with a message the caller may read (a step failed that the caller can simply retry). */
export class InternalError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(500, 'internal_error', message, options); }
}
export class ServiceUnavailableError extends AppError {
  constructor(message: string, options?: AppErrorOptions) { super(503, 'unavailable', message, options); }
}
