/** Small helpers the benches share: a JSON client for the local runtime and sign-up through the API. */

export type Reply = { status: number; body: Record<string, unknown>; text: string };

/** A tiny JSON client (keep-alive through Node's global fetch). */
export function client(base: string, apiKey?: string) {
  return async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const res = await fetch(base + p, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try { json = text ? JSON.parse(text) : {}; } catch { /* html */ }
    return { status: res.status, body: json, text };
  };
}

export function must(r: Reply, what: string): Reply {
  if (r.status !== 200) throw new Error(`${what}: HTTP ${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

/** Sign-up through the API and the local outbox, then the given plan; answers the first API key. */
export async function signup(base: string, email: string, plan = 'scale'): Promise<string> {
  const api = client(base);
  must(await api('POST', '/api/signup', { email }), 'POST /api/signup');
  const outbox = JSON.parse(must(await api('GET', '/dev/outbox'), 'GET /dev/outbox').text) as Array<{ to: string; links: string[] }>;
  const link = outbox.find((m) => m.to === email)?.links[0];
  if (!link) throw new Error(`no confirmation email for ${email}`);
  const confirmed = must(await api('POST', '/api/signup/confirm', { token: new URL(link).searchParams.get('token') }), 'POST /api/signup/confirm');
  must(await api('POST', '/dev/plan', { email, plan }), 'POST /dev/plan');
  return confirmed.body.api_key as string;
}
