import type { Deps } from '../deps';
import type { Account, Brand, BrandStore } from '../../ports/store';
import type { Connection, ConnectionStore } from '../../ports/publishing';
import type { Cipher } from '../../ports/cipher';
import type { NetworkResult } from '../../domain/post';
import { BadRequestError } from '../../domain/errors';
import { validatePost, type PostRequest, type ValidPost } from '../publish/request';
import { resolveBrand } from '../publish/brand';
import { precheck, type Sendable } from '../publish/checks';
import { credentialTargetProblem } from '../security/credential-targets';
import { contentFor } from '../publish/content';
import { UnsafeTargetError } from '../../ports/media-gateway';
import type { PlatformName } from '../../domain/platforms';

/** A post request that passed every check that can be made before its time, with its brand fixed. */
export interface CheckedPost {
  valid: ValidPost;
  brand: Brand;
  /** What is stored and validated again when it fires: the request as sent, with brand_id set to the brand chosen now. */
  request: PostRequest;
}

/** What checking a post now reaches: its brand, connections and their credentials, the network adapters, media. */
export type CheckDeps = Pick<Deps, 'brands' | 'connections' | 'cipher' | 'media' | 'clock'>;

/**
 * Everything about a post that can be checked before its time, with the publishing core's own functions:
 * 1. validatePost (platform xor platforms, known networks, caption_is_json, per_platform, empty_text).
 * 2. resolveBrand (404 brand_not_found, 409 ambiguous_brand); the brand chosen now is the brand it posts in later.
 * 3. precheck per network (available, connected in the brand, sign-in valid, media the network needs and takes,
 *    the adapter's own limits). A network that would fail makes the request a 400 with that network's code
 *    (e.g. not_connected, media_required, bad_media), naming the networks and their results.
 * 4. Every media link passes the address guard now (https, public address; no fetch): a private or malformed link
 *    is 400 media_unreachable at once instead of failing at run time. The links are fetched once when the post is
 *    sent, like POST /api/post (they may not exist yet).
 * 5. The connection's credential URLs and Nostr relays pass the same address guard now (credentialTargetProblem): a
 *    stored instance, site, webhook or relay URL that points at a private address is 400 invalid_credentials.
 */
export async function checkNow(deps: CheckDeps, account: Account, req: PostRequest): Promise<CheckedPost> {
  const valid = validatePost(req);
  const { brand, connections } = await resolveBrand(deps, account, valid.platforms, valid.brand_id);
  const problems: NetworkResult[] = [];
  const sendable: Sendable[] = [];
  for (const platform of valid.platforms) {
    const checked = await precheck(deps, platform, connections.find((c) => c.platform === platform), contentFor(valid.payload, platform, 'pst_check'));
    if ('ok' in checked) problems.push(checked);
    else sendable.push(checked);
  }
  const links = new Map<string, PlatformName[]>();
  for (const platform of valid.platforms) {
    for (const m of contentFor(valid.payload, platform, 'pst_check').media) links.set(m.url, [...(links.get(m.url) ?? []), platform]);
  }
  for (const [url, platforms] of links) {
    try {
      await deps.media.checkTarget(url);
    } catch (err) {
      if (!(err instanceof UnsafeTargetError)) throw err;
      for (const platform of platforms) {
        if (!problems.some((p) => p.platform === platform)) {
          problems.push({ platform, ok: false, status: 'failed', code: 'media_unreachable', error: `${url.split('?')[0].slice(0, 200)}: ${err.message}` });
        }
      }
    }
  }
  for (const s of sendable) {
    const unsafe = problems.some((p) => p.platform === s.platform) ? undefined : await credentialTargetProblem(deps, s.platform, s.credentials);
    if (unsafe) problems.push(unsafe);
  }
  if (problems.length) {
    const first = problems[0];
    throw new BadRequestError(`${first.platform}: ${first.error ?? first.code}`, { code: first.code ?? 'invalid_request', details: { platforms: problems.map((p) => p.platform), results: problems }, });
  }
  return { valid: { ...valid, brand_id: brand.id }, brand, request: { ...req, brand_id: brand.id } };
}

/**
 * Deps whose reads of brands, connections and credentials are remembered for one request, so checking 500 bulk
 * rows reads each once (and decrypts each credential once). Writes go straight through.
 */
export function cachedReads<D extends CheckDeps>(deps: D, known?: { accountId: string; brands: Brand[]; connections: Connection[] }): D {
  const memo = new Map<string, Promise<unknown>>();
  // what the caller already read (the publish routes' one query of the account) is not read again
  if (known) {
    memo.set(`brands#${known.accountId}`, Promise.resolve(known.brands));
    memo.set(`connections#${known.accountId}`, Promise.resolve(known.connections));
  }
  const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    if (!memo.has(key)) memo.set(key, load().catch((err) => { memo.delete(key); throw err; }));
    return memo.get(key) as Promise<T>;
  };
  // each store seen through an object whose prototype is the store: its other methods (writes) go straight through
  const brands: BrandStore = Object.create(deps.brands);
  brands.get = (a, id) => once(`brand#${a}#${id}`, () => deps.brands.get(a, id));
  brands.list = (a) => once(`brands#${a}`, () => deps.brands.list(a));
  const connections: ConnectionStore = Object.create(deps.connections);
  connections.listByAccount = (a) => once<Connection[]>(`connections#${a}`, () => deps.connections.listByAccount(a));
  const cipher: Cipher = Object.create(deps.cipher);
  cipher.decrypt = (c, context) => once(`decrypt#${c}#${JSON.stringify(context ?? {})}`, () => deps.cipher.decrypt(c, context));
  // the other dependencies through the prototype, so the container's unread ones stay unbuilt until used
  const own = (value: unknown): PropertyDescriptor => ({ value, enumerable: true });
  return Object.create(deps, { brands: own(brands), connections: own(connections), cipher: own(cipher) }) as D;
}
