/**
 * Takes the SDK's logger middleware out of a client's stack. No client here is given a logger, so the SDK's
 * default one discards every line, yet the middleware still copies and filters each call's whole input and output
 * for it (about 15 % of a small call's CPU, measured against the embedded engine). Errors still reach the caller.
 */
export function dropNoOpLogging(client: { middlewareStack: { remove(name: string): boolean } }): void {
  client.middlewareStack.remove('loggerMiddleware');
}
