import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalRuntime, type LocalOptions, type LocalRuntime } from '../../infra/local/runtime';
import { responseViolation, watchResponses } from './response-contract';

/**
 * Starts the whole local runtime on a random port with a fresh data dir (`opts`: a test clock, manual timers, the
 * handlers' own deps). Every answer the test file then fetches from it is judged against its route's declared
 * responses (watchResponses), raw fetches included.
 */
export async function startRuntime(env: Record<string, string> = {}, dataDir?: string, opts: Pick<LocalOptions, 'clock' | 'manualTimers' | 'deps'> = {}): Promise<LocalRuntime> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'spa-e2e-'));
  const rt = await startLocalRuntime({ port: 0, dataDir: dir, env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...env }, ...opts });
  watchResponses(rt.url);
  return rt;
}

/**
 * A tiny JSON client for the runtime. Every answer is checked against its route's declared responses (status and
 * body schema, the ones the OpenAPI document is made from): a mismatch throws, so the document cannot drift from
 * what the handlers return.
 */
export function client(base: string, apiKey?: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    const violation = responseViolation(method, path, res.status, res.headers.get('content-type'), text);
    if (violation) throw new Error(violation);
    let json: Record<string, unknown> = {};
    try { json = text ? JSON.parse(text) : {}; } catch { /* html */ }
    return { status: res.status, body: json, text, headers: res.headers };
  };
}

/** Signs up through the API and the local outbox; answers a working API key. */
export async function signupThroughApi(base: string, email: string, plan?: string): Promise<string> {
  const api = client(base);
  expect((await api('POST', '/api/signup', { email })).status).toBe(200);
  const outbox = (await api('GET', '/dev/outbox')).text;
  const link = (JSON.parse(outbox) as Array<{ to: string; links: string[] }>).find((m) => m.to === email)!.links[0];
  // opening the link only shows a page; the confirmation is a POST (mail scanners cannot spend the link)
  const confirmed = await api('POST', '/api/signup/confirm', { token: new URL(link).searchParams.get('token') });
  expect(confirmed.status).toBe(200);
  if (plan) expect((await api('POST', '/dev/plan', { email, plan })).status).toBe(200);
  return confirmed.body.api_key as string;
}
