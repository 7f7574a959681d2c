import type { ExtraRoute } from '../http-server';
import type { Sandbox } from '.';

/**
 * How the sandbox plugs into the local runtime: the environment that points each network at its simulator (a
 * network whose own variables the user set is left alone: an explicit `<NAME>_API_BASE` always wins), and the raw
 * routes `/sandbox/*` (the simulators), `GET /dev/sandbox` (JSON) and `GET /dev/sandbox/inbox` (the page).
 */
export function sandboxEnvironment(sandbox: Sandbox, current: Record<string, string | undefined>): { env: Record<string, string>; explicit: string[] } {
  const env: Record<string, string> = {};
  const explicit: string[] = [];
  for (const [network, group] of Object.entries(sandbox.envGroups())) {
    const names = Object.keys(group);
    if (names.some((n) => (current[n] ?? '').trim() !== '')) { explicit.push(network); continue; }
    Object.assign(env, group);
  }
  return { env, explicit };
}

/** The networks whose environment points at the sandbox (the credential-URL networks are recognised by their URLs). */
export function simulatedNetworks(sandbox: Sandbox, explicit: string[]): string[] {
  return Object.entries(sandbox.envGroups()).filter(([n, g]) => Object.keys(g).length > 0 && !explicit.includes(n)).map(([n]) => n);
}

const SANDBOX_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

export function sandboxRoutes(sandbox: Sandbox): ExtraRoute[] {
  return [
    { method: '*', prefix: '/sandbox/', handle: (req, res, body) => sandbox.handle(req, res, body) },
    {
      method: 'GET', prefix: '/dev/sandbox',
      handle: (req, res) => {
        const path = new URL(req.url ?? '/', 'http://local').pathname;
        if (path === '/dev/sandbox/inbox') {
          res.writeHead(200, SANDBOX_PAGE_HEADERS).end(sandbox.inboxPage());
        } else if (path === '/dev/sandbox') {
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(sandbox.describe()));
        } else {
          res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: 'Not found', code: 'not_found' }));
        }
      },
    },
  ];
}
