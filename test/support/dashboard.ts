import { client } from './runtime';

/** A signed-in dashboard browser stand-in: the session cookie and the CSRF token scraped from a page. */
export interface DashboardSession {
  cookie: string;
  csrf: string;
  /** GET/POST with the session cookie; forms are url-encoded and carry the CSRF token unless `csrf: false`. */
  get(path: string): Promise<Response>;
  post(path: string, form?: Record<string, string | string[]>, opts?: { csrf?: boolean | string }): Promise<Response>;
}

export const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

/** Signs in through the sign-in form, the local outbox and the link's button. */
export async function signInThroughOutbox(base: string, email: string): Promise<DashboardSession> {
  const form = (f: Record<string, string>) => new URLSearchParams(f).toString();
  const asked = await fetch(`${base}/dashboard/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ email }) });
  if (asked.status !== 200) throw new Error(`sign-in request: ${asked.status}`);
  const outbox = JSON.parse((await client(base)('GET', '/dev/outbox')).text) as Array<{ to: string; subject: string; links: string[] }>;
  const link = outbox.find((m) => m.to === email && m.subject.includes('sign-in'))!.links[0];
  const token = new URL(link).searchParams.get('token')!;
  const pressed = await fetch(`${base}/dashboard/sign-in/link`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ token }) });
  if (pressed.status !== 303) throw new Error(`sign-in button: ${pressed.status}`);
  const cookie = pressed.headers.getSetCookie()[0].split(';')[0];
  const home = await fetch(`${base}/dashboard`, { headers: { cookie } });
  const csrf = csrfOf(await home.text())!;
  const session: DashboardSession = {
    cookie, csrf,
    get: (path) => fetch(base + path, { headers: { cookie }, redirect: 'manual' }),
    post: (path, f = {}, opts = {}) => {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(f)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
      if (opts.csrf !== false) body.append('csrf', typeof opts.csrf === 'string' ? opts.csrf : csrf);
      return fetch(base + path, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
    },
  };
  return session;
}
