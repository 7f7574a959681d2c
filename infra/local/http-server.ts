import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { handlerFile, type RouteDef } from '../../shared/http/route';
import { lambdaContext, type LoadHandler } from './invoke';
import { asFunction } from './function-scope';

/** API Gateway's payload limit; bodies above it never reach a function. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
const TEXTUAL = /^(application\/(json|x-www-form-urlencoded|xml|[\w.+-]+\+json)|text\/)/i;

interface CompiledRoute {
  route: RouteDef;
  regex: RegExp;
  names: string[];
}

function compile(route: RouteDef): CompiledRoute {
  const names: string[] = [];
  const pattern = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => { names.push(name); return '([^/]+)'; });
  return { route, regex: new RegExp(`^${pattern}$`), names };
}

/** Builds the API Gateway HTTP API (payload 2.0) event that Lambda would receive for this request. */
export function toEvent(req: http.IncomingMessage, body: Buffer, match: { route: RouteDef; params: Record<string, string> }, port: number): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', `http://localhost:${port}`);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== 'cookie') headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const contentType = headers['content-type'] ?? '';
  const textual = body.length === 0 || TEXTUAL.test(contentType);
  const now = new Date();
  const routeKey = `${req.method ?? match.route.method} ${match.route.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: req.headers.cookie ? req.headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(match.params).length ? match.params : undefined,
    requestContext: {
      accountId: 'local', apiId: 'local', domainName: `localhost:${port}`, domainPrefix: 'localhost',
      http: { method: req.method ?? 'GET', path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(), routeKey, stage: '$default', time: now.toUTCString(), timeEpoch: now.getTime(),
    },
    body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: !textual,
  };
}

function send(res: http.ServerResponse, result: APIGatewayProxyStructuredResultV2) {
  const headers: http.OutgoingHttpHeaders = { ...(result.headers as Record<string, string>) };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(body);
}

const json = (status: number, body: unknown): APIGatewayProxyStructuredResultV2 =>
  ({ statusCode: status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });

function decodeParams(names: string[], match: RegExpExecArray): Record<string, string> | undefined {
  try {
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1])]));
  } catch {
    return undefined;
  }
}

export interface ExtraRoute {
  /** An HTTP method, or '*' for any. */
  method: string;
  prefix: string;
  /** `body`: the request body, already read. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> | void;
}

/** Takes over a WebSocket upgrade (the sandbox's Nostr relay); false leaves it (the socket is then closed). */
export type UpgradeHandler = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => boolean;

/**
 * The local stand-in for API Gateway: matches the route table, builds a real v2 event, invokes the same handler
 * module Lambda runs, and maps the result back (cookies and base64 bodies included).
 */
export async function startHttpServer(routes: RouteDef[], load: LoadHandler, port: number, extra: ExtraRoute[] = [], upgrade?: UpgradeHandler) {
  const compiled = routes.map(compile);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => { size += c.length; if (size > MAX_PAYLOAD_BYTES) tooLarge = true; else chunks.push(c); });
    req.on('end', async () => {
      try {
        const path = new URL(req.url ?? '/', 'http://localhost').pathname;
        const special = extra.find((e) => (e.method === '*' || e.method === req.method) && path.startsWith(e.prefix));
        if (special) return await special.handle(req, res, Buffer.concat(chunks));
        if (tooLarge) return send(res, json(413, { error: 'Request body too large', code: 'too_large' }));
        const candidates = compiled.map((c) => ({ c, m: c.regex.exec(path) })).filter((x) => x.m);
        const hit = candidates.find((x) => x.c.route.method === req.method || x.c.route.extraMethods?.includes(req.method as RouteDef['method']));
        if (!hit) {
          if (!candidates.length) return send(res, json(404, { error: 'Not found', code: 'not_found' }));
          const allow = [...new Set(candidates.map((x) => x.c.route.method))].join(', ');
          const refused = json(405, { error: `Method ${req.method} is not allowed here; allowed: ${allow}`, code: 'method_not_allowed', allow: allow.split(', ') });
          return send(res, { ...refused, headers: { ...refused.headers, allow } });
        }
        const params = decodeParams(hit.c.names, hit.m!);
        // percent-encoding that does not decode to UTF-8 (%ff, the overlong %C0%AF) names nothing that exists
        if (!params) return send(res, json(404, { error: 'Not found: the path is not valid percent-encoded UTF-8', code: 'not_found' }));
        const event = toEvent(req, Buffer.concat(chunks), { route: hit.c.route, params }, port);
        const handler = await load(handlerFile(hit.c.route));
        const result = await asFunction(hit.c.route.id, () => handler(event, lambdaContext(hit.c.route.id, (hit.c.route.timeoutSeconds ?? 29) * 1000))) as APIGatewayProxyStructuredResultV2;
        send(res, result);
      } catch (err) {
        process.stderr.write(`local runtime: ${(err as Error).stack ?? err}\n`);
        if (!res.headersSent) send(res, json(500, { error: 'Internal error', code: 'internal_error' }));
      }
    });
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!upgrade?.(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', () => resolve()); });
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    stop: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}
