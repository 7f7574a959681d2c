import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured JSON logs on Powertools Logger, one line per entry. Callers pass facts, never secrets, headers or
 * bodies; as a second line of defence, fields whose names say secret (token, secret, password, authorization,
 * api_key, credential…) and values shaped like our keys/tokens are replaced by "[redacted]".
 *
 * Every line carries the correlation fields of the work it belongs to (`withLogContext`): the request id of the
 * HTTP request that started it (`correlation_id`), then post id, network and delivery id as they become known.
 * The context lives in AsyncLocalStorage, so concurrent requests in one process (the local runtime, a worker batch)
 * never mix their fields. Locally, `POWERTOOLS_DEV=true` (set by `npm start` when stdout is a terminal) prints the
 * same lines indented.
 */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = keyof typeof LEVELS;
export type LogFields = Record<string, unknown>;

const SECRET_NAME = /(secret|token|password|passwd|authorization|api_?key|credential|cookie|signature|private_?key|app_password|session)/i;
/** Our own secrets (API keys, link/session tokens, webhook secrets) and bearer values, wherever they appear. */
const SECRET_VALUE = /(svc_(?:live|test)_[A-Za-z0-9_-]{8,}|whsec_[A-Za-z0-9_-]{8,}|Bearer\s+[A-Za-z0-9._~+/=-]{8,})/g;
/** Field names that hold ids, not secrets, even though a word above matches them. */
const SAFE_NAMES = new Set(['token_id', 'key_id', 'session_id', 'correlation_id', 'key_prefix']);

function threshold(): number {
  const env = (process.env.LOG_LEVEL ?? 'info') as Level;
  return LEVELS[env] ?? LEVELS.info;
}

let logger: Logger | undefined;
function powertools(): Logger {
  logger ??= new Logger({
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'social-publishing',
    // Filtering is done here (LOG_LEVEL, which tests change at run time); Powertools prints whatever reaches it.
    logLevel: 'DEBUG',
    jsonReplacerFn: (key: string, value: unknown) => redactValue(key, value),
  });
  return logger;
}

/** Replaces a secret-named field or a secret-shaped string. */
function redactValue(key: string, value: unknown): unknown {
  if (key && !SAFE_NAMES.has(key) && SECRET_NAME.test(key) && value !== null && value !== undefined && typeof value !== 'boolean' && typeof value !== 'number') {
    return '[redacted]';
  }
  if (typeof value === 'string') return value.replace(SECRET_VALUE, '[redacted]');
  return value;
}

/** The SQS message attribute that carries the sender's correlation id to the worker's log lines. */
export const CORRELATION_ATTRIBUTE = 'correlation_id';

const store = new AsyncLocalStorage<LogFields>();

/** Runs `fn` with these correlation fields added to every log line it (and what it awaits) writes. */
export function withLogContext<T>(fields: LogFields, fn: () => T): T {
  return store.run({ ...(store.getStore() ?? {}), ...dropUndefined(fields) }, fn);
}

/** Adds fields to the current context (e.g. the account once authenticated, the post id once created). */
export function appendLogContext(fields: LogFields): void {
  const current = store.getStore();
  if (current) Object.assign(current, dropUndefined(fields));
}

/** The correlation id of the current work (the originating request id), if any. */
export function correlationId(): string | undefined {
  const id = store.getStore()?.correlation_id;
  return typeof id === 'string' ? id : undefined;
}

/** The current correlation fields (copied). */
export function logContext(): LogFields {
  return { ...(store.getStore() ?? {}) };
}

function dropUndefined(fields: LogFields): LogFields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

function write(level: Exclude<Level, 'silent'>, msg: string, fields: LogFields) {
  if (LEVELS[level] < threshold()) return;
  powertools()[level](msg, { ...(store.getStore() ?? {}), ...fields });
}

export const log = {
  debug: (msg: string, fields: LogFields = {}) => write('debug', msg, fields),
  info: (msg: string, fields: LogFields = {}) => write('info', msg, fields),
  warn: (msg: string, fields: LogFields = {}) => write('warn', msg, fields),
  error: (msg: string, fields: LogFields = {}) => write('error', msg, fields),
};

/** An error's name and message (and stack for logs only), without enumerable extras that might hold secrets. */
export function errorFields(err: unknown): LogFields {
  if (err instanceof Error) return { error_name: err.name, error_message: err.message, stack: err.stack };
  return { error_message: String(err) };
}

/**
 * Awaits a best-effort step — a clean-up or compensation whose failure must not hide the outcome at hand — and logs
 * its failure as a warning instead of throwing it, so that no error disappears unlogged.
 */
export async function bestEffort(what: string, step: Promise<unknown>, fields: LogFields = {}): Promise<void> {
  try {
    await step;
  } catch (err) {
    log.warn(`${what} failed (best effort)`, { ...fields, ...errorFields(err) });
  }
}
