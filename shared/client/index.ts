import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

/**
 * The typed client of the Social Publishing API: `openapi-fetch` over types generated from the OpenAPI document
 * (`schema.d.ts`, `npm run client:generate`); no request or response type is written by hand.
 *
 *   const api = createSocialClient({ baseUrl: 'https://api.example.com', apiKey: process.env.SOCIAL_API_KEY });
 *   const { data, error } = await api.POST('/api/post', { body: { platforms: ['telegram'], text: 'Hello' } });
 *   if (error) console.error(error.code, error.error);
 *
 * `unwrap()` turns an error answer into a thrown `SocialApiError` carrying the status, the `code` and the body.
 */
export type { paths, components, operations };
export type SocialClient = Client<paths>;
/** Every error answer of the API: `{ error, code, ...details }`. */
export type ApiErrorBody = components['schemas']['Error'];

export interface SocialClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  baseUrl: string;
  /** An API key (svc_live_…), sent as `Authorization: Bearer`. */
  apiKey?: string;
}

export function createSocialClient(opts: SocialClientOptions): SocialClient {
  const { apiKey, baseUrl, headers, ...rest } = opts;
  return createClient<paths>({
    ...rest,
    baseUrl: baseUrl.replace(/\/$/, ''),
    headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...(headers as Record<string, string> | undefined) },
  });
}

/** The class of an error answer, by status; the CLI maps each to its exit code. */
export type ErrorClass = 'auth' | 'invalid' | 'not_found' | 'conflict' | 'rate_limited' | 'server' | 'network';

export function errorClassOf(status: number): ErrorClass {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'invalid';
}

/** An error answer of the API (or no answer at all: status 0, class `network`). */
export class SocialApiError extends Error {
  readonly errorClass: ErrorClass;
  constructor(readonly status: number, readonly code: string, message: string, readonly body: ApiErrorBody | undefined) {
    super(message);
    this.name = 'SocialApiError';
    this.errorClass = status === 0 ? 'network' : errorClassOf(status);
  }
}

/** The data of a successful answer; throws SocialApiError for an error answer (typed by its `code`). */
export async function unwrap<D, E>(call: Promise<{ data?: D; error?: E; response: Response }>): Promise<D> {
  let res: { data?: D; error?: E; response: Response };
  try {
    res = await call;
  } catch (err) {
    throw new SocialApiError(0, 'network_error', `Could not reach the API: ${(err as Error).message}`, undefined);
  }
  if (res.response.ok) return res.data as D;
  const body = (typeof res.error === 'object' && res.error !== null ? res.error : undefined) as ApiErrorBody | undefined;
  throw new SocialApiError(res.response.status, body?.code ?? `http_${res.response.status}`, body?.error ?? res.response.statusText, body);
}
