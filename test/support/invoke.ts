import fs from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lambdaContext } from '../../infra/local/invoke';

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
