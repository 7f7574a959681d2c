/** Structured JSON logs, one line per entry. Callers pass facts, never secrets, headers or bodies. */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = keyof typeof LEVELS;

function threshold(): number {
  const env = (process.env.LOG_LEVEL ?? 'info') as Level;
  return LEVELS[env] ?? LEVELS.info;
}

function write(level: Exclude<Level, 'silent'>, msg: string, fields: Record<string, unknown>) {
  if (LEVELS[level] < threshold()) return;
  const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...fields });
  if (level === 'error' || level === 'warn') process.stderr.write(line + '\n');
  else process.stdout.write(line + '\n');
}

export const log = {
  debug: (msg: string, fields: Record<string, unknown> = {}) => write('debug', msg, fields),
  info: (msg: string, fields: Record<string, unknown> = {}) => write('info', msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write('warn', msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write('error', msg, fields),
};

/** An error's name and message (and stack for logs only), without enumerable extras that might hold secrets. */
export function errorFields(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { error_name: err.name, error_message: err.message, stack: err.stack };
  return { error_message: String(err) };
}
