import fs from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lambdaContext } from '../../infra/local/invoke';
import type { Deps } from '../../shared/app/deps';

/** Reads a sample event from events/ and applies changes (headers merged). */
export function sampleEvent(file: string, change: Partial<APIGatewayProxyEventV2> = {}): APIGatewayProxyEventV2 {
  const base = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'events', file), 'utf8')) as APIGatewayProxyEventV2;
  return { ...base, ...change, headers: { ...base.headers, ...change.headers } };
}

/** A middy handler's call signature (its third argument carries an abort signal). */
type Handler = (e: APIGatewayProxyEventV2, c: ReturnType<typeof lambdaContext>, o: { signal: AbortSignal }) => unknown;

/** Invokes a handler as Lambda would and parses the JSON body. */
export async function call(handler: Handler, event: APIGatewayProxyEventV2) {
  const res = (await handler(event, lambdaContext('test', 10_000), { signal: new AbortController().signal })) as APIGatewayProxyStructuredResultV2;
  let body: unknown = res.body;
  try { body = res.body ? JSON.parse(res.body) : undefined; } catch { /* html */ }
  return { status: res.statusCode!, headers: (res.headers ?? {}) as Record<string, string>, body: body as Record<string, unknown>, raw: res.body ?? '', cookies: res.cookies ?? [] };
}

/**
 * `call` with each handler made over the deps `current()` answers at that call (its `using`, shared/container.ts
 * wiredHandler): a test picks its dependencies when it builds them, and may answer others for one call.
 */
export function callOver(current: () => Deps) {
  return (handler: { using(deps: Deps): Handler }, event: APIGatewayProxyEventV2) => call(handler.using(current()), event);
}

/** A handler (a worker's, the dispatcher's) made over the deps `current()` answers at each call. */
export function over<A extends unknown[], R>(handler: { using(deps: Deps): (...args: A) => R }, current: () => Deps): (...args: A) => R {
  return (...args) => handler.using(current())(...args);
}
