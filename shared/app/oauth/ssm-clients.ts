import { createHash, createHmac } from 'node:crypto';
import type { Config } from '../../config';
import type { PlatformName } from '../../domain/platforms';
import { envClients, firstOf, type OAuthClient, type OAuthClients } from './clients';
import { errorFields, log } from '../../log';

/**
 * OAuth client registrations in AWS: SecureString parameters `<OAUTH_SSM_PREFIX>/<network>/client_id` and
 * `<OAUTH_SSM_PREFIX>/<network>/client_secret` (e.g. /social-publishing/oauth/x/client_id), read with one paged
 * GetParametersByPath the first time a registration is needed, then kept for the life of the Lambda instance.
 * The environment (`<NAME>_CLIENT_ID`/`_SECRET`) stays a fallback; locally it is the only source.
 * (SSM is called over its JSON API with a SigV4 signature made here, so no extra SDK package is needed.)
 */
export function oauthClients(cfg: Config): OAuthClients {
  const env = envClients(cfg);
  if (cfg.RUNTIME !== 'aws' || !cfg.OAUTH_SSM_PREFIX) return env;
  const ssm = ssmClients({ prefix: cfg.OAUTH_SSM_PREFIX, region: cfg.AWS_REGION });
  // an unreadable Parameter Store is logged and the environment answers (the next use tries SSM again)
  const guarded: OAuthClients = {
    get: (platform) => ssm.get(platform).catch((err: unknown) => {
      log.warn('oauth client registrations could not be read from SSM', { prefix: cfg.OAUTH_SSM_PREFIX, ...errorFields(err) });
      return undefined;
    }),
  };
  return firstOf(guarded, env);
}

export interface SsmOptions {
  prefix: string;
  region: string;
  /** Defaults to the Lambda's own credentials (environment). */
  credentials?: () => { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Defaults to https://ssm.<region>.amazonaws.com. */
  endpoint?: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

export function ssmClients(o: SsmOptions): OAuthClients {
  let loaded: Promise<Map<string, string>> | undefined;
  const prefix = o.prefix.replace(/\/+$/, '');
  return {
    async get(platform: PlatformName): Promise<OAuthClient | undefined> {
      loaded ??= readAll(o, prefix).catch((err) => { loaded = undefined; throw err; });
      const params = await loaded;
      const clientId = params.get(`${prefix}/${platform}/client_id`);
      const clientSecret = params.get(`${prefix}/${platform}/client_secret`);
      return clientId && clientSecret ? { clientId, clientSecret } : undefined;
    },
  };
}

async function readAll(o: SsmOptions, prefix: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let next: string | undefined;
  do {
    const res = await ssmCall(o, 'GetParametersByPath', { Path: prefix, Recursive: true, WithDecryption: true, MaxResults: 10, ...(next ? { NextToken: next } : {}) }) as
      { Parameters?: Array<{ Name: string; Value: string }>; NextToken?: string };
    for (const p of res.Parameters ?? []) out.set(p.Name, p.Value);
    next = res.NextToken;
  } while (next);
  return out;
}

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** Signs one request with AWS Signature Version 4 (header form). Exported for its test. */
export function signV4(input: { method: string; url: URL; headers: Record<string, string>; body: string; region: string; service: string; now: Date; accessKeyId: string; secretAccessKey: string; sessionToken?: string }): Record<string, string> {
  const amzDate = input.now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = { ...input.headers, host: input.url.host, 'x-amz-date': amzDate };
  if (input.sessionToken) headers['x-amz-security-token'] = input.sessionToken;
  const names = Object.keys(headers).map((h) => h.toLowerCase()).sort();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, ' ')]));
  const canonical = [input.method, input.url.pathname || '/', input.url.searchParams.toString(),
    names.map((n) => `${n}:${lower[n]}\n`).join(''), names.join(';'), sha256(input.body)].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, day), input.region), input.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return { ...headers, authorization: `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}` };
}

async function ssmCall(o: SsmOptions, action: string, payload: unknown): Promise<unknown> {
  const creds = (o.credentials ?? (() => ({
    accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? '', sessionToken: process.env.AWS_SESSION_TOKEN,
  })))();
  const url = new URL(o.endpoint ?? `https://ssm.${o.region}.amazonaws.com/`);
  const body = JSON.stringify(payload);
  const headers = signV4({
    method: 'POST', url, body, region: o.region, service: 'ssm', now: (o.now ?? (() => new Date()))(), ...creds,
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AmazonSSM.${action}` },
  });
  const { host: _host, ...sent } = headers;
  const res = await (o.fetch ?? fetch)(url, { method: 'POST', headers: sent, body, signal: AbortSignal.timeout(5_000) });
  const text = await res.text();
  if (!res.ok) throw new Error(`SSM ${action} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}
