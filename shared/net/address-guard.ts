import { BlockList, isIP } from 'node:net';
import { promises as dns } from 'node:dns';
import { UnsafeTargetError } from '../ports/media-gateway';

/**
 * Outbound address safety (decisions.md "Webhooks" address checks): every URL the service fetches on a user's
 * behalf (media links, credential URLs such as a Mastodon instance, a WordPress site or a Discord/Slack webhook,
 * and webhook deliveries) must be https and resolve only to public addresses. `ALLOW_PRIVATE_TARGETS=1` lifts
 * the address check and the https requirement for tests and local demos.
 *
 * The addresses checkUrl answers are the ones to connect to: media links and ctx.fetch (shared/net/pinned-fetch.ts)
 * and webhook deliveries (pinned-request.ts) connect to the checked address, so a second DNS answer cannot
 * redirect them (no DNS-rebinding window).
 */

/** Why a URL was refused. */
/** Resolves a host name to all its addresses (IPv4 and IPv6, as strings). */
export type HostLookup = (host: string) => Promise<string[]>;

/** Options of checkUrl. */
export interface CheckUrlOptions {
  /** Lifts the address check and the https requirement (ALLOW_PRIVATE_TARGETS, tests and local demos only). */
  allowPrivate: boolean;
  /** Refuse http:// (default true). Ignored when allowPrivate is true. */
  requireHttps?: boolean;
  /** Name resolution; defaults to dns.promises.lookup(host, { all: true, verbatim: true }). */
  lookup?: HostLookup;
  /** The sandbox's origin (local sandbox mode): its /sandbox/ paths are allowed, and nothing else private. */
  sandboxOrigin?: string;
}

/** A URL that passed the checks, with the addresses it was judged by (the literal, or what the name resolved to). */
export interface CheckedUrl {
  url: URL;
  addresses: string[];
}

// IPv4 ranges that are never public.
const V4_BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. 255.255.255.255 broadcast
] as const) V4_BLOCKED.addSubnet(net, prefix, 'ipv4');

// Only global unicast IPv6 (2000::/3) can be public ...
const V6_GLOBAL = new BlockList();
V6_GLOBAL.addSubnet('2000::', 3, 'ipv6');
// ... minus these ranges inside it.
const V6_BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['2001::', 32], // Teredo
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
] as const) V6_BLOCKED.addSubnet(net, prefix, 'ipv6');
// fc00::/7 (ULA), fe80::/10 (link-local), ff00::/8 (multicast), ::/128, ::1 and 64:ff9b:1::/48 all fall outside
// 2000::/3; mapped, compatible, NAT64 and 6to4 forms are judged by their embedded IPv4 before this check.

/**
 * True when `ip` (an IPv4 or IPv6 literal, without brackets) is a public unicast address. False for anything else,
 * including loopback, private, link-local/metadata, CGNAT, multicast, reserved, documentation and benchmarking
 * ranges, IPv6 ULA and Teredo; IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses
 * are judged by the IPv4 address they carry. Not an IP literal → false.
 */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 4) return !V4_BLOCKED.check(bare, 'ipv4');
  if (family !== 6) return false;
  const words = ipv6Words(bare);
  if (!words) return false;
  const embedded = embeddedIpv4(words);
  if (embedded !== undefined) return isPublicAddress(embedded);
  const canonical = words.map((w) => w.toString(16)).join(':');
  return V6_GLOBAL.check(canonical, 'ipv6') && !V6_BLOCKED.check(canonical, 'ipv6');
}

/**
 * The IP address a URL host stands for, or undefined when the host is a name. Accepts bracketed IPv6
 * ("[::1]") and the loose IPv4 spellings a URL parser normalises (2130706433, 0x7f.1, 0177.0.0.1, 127.1 →
 * 127.0.0.1) by letting WHATWG URL canonicalise the host first.
 */
export function parseHostToIp(host: string): string | undefined {
  let h = host.trim();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (isIP(h)) return h;
  if (!h || /[\s/\\?#@[\]]/.test(h)) return undefined;
  let canonical: string;
  try {
    canonical = new URL(`http://${h}/`).hostname;
  } catch {
    return undefined;
  }
  if (canonical.startsWith('[') && canonical.endsWith(']')) canonical = canonical.slice(1, -1);
  return isIP(canonical) ? canonical : undefined;
}

/**
 * Checks that `raw` may be fetched: a URL, https (http only when allowPrivate or requireHttps is false), no
 * user:pass@ part, and a host that is a public IP literal or a name resolving only to public addresses.
 * With allowPrivate only the URL parse and the http/https scheme are checked. Throws UnsafeTargetError.
 */
export async function checkUrl(raw: string, opts: CheckUrlOptions): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (err) {
    throw new UnsafeTargetError('invalid_url', 'The link is not a valid URL', err);
  }
  const sandbox = opts.sandboxOrigin ?? sandboxOrigin();
  if (sandbox && url.origin === sandbox && url.pathname.startsWith('/sandbox/') && !url.username && !url.password) {
    return { url, addresses: ['127.0.0.1'] };
  }
  const requireHttps = opts.requireHttps ?? true;
  const httpOk = opts.allowPrivate || !requireHttps;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && httpOk)) {
    const scheme = url.protocol.replace(/:$/, '');
    throw new UnsafeTargetError('scheme', httpOk
      ? `The link must start with https:// or http:// (it uses ${scheme}:)`
      : `The link must start with https:// (it uses ${scheme}:)`);
  }
  if (!url.hostname) throw new UnsafeTargetError('invalid_url', 'The link has no host name');
  const literal = parseHostToIp(url.hostname);
  if (opts.allowPrivate) return { url, addresses: literal ? [literal] : [] };

  if (url.username || url.password) {
    throw new UnsafeTargetError('credentials_in_url', 'The link must not contain a user name or password before the host name');
  }
  if (literal) {
    if (!isPublicAddress(literal)) throw privateAddress(url.hostname);
    return { url, addresses: [literal] };
  }
  const name = url.hostname.replace(/\.$/, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) throw privateAddress(url.hostname);

  let addresses: string[];
  try {
    addresses = await (opts.lookup ?? defaultLookup)(name);
  } catch (err) {
    throw new UnsafeTargetError('unresolvable', `The host name ${url.hostname} could not be resolved`, err);
  }
  if (addresses.length === 0) {
    throw new UnsafeTargetError('unresolvable', `The host name ${url.hostname} could not be resolved`);
  }
  const bad = addresses.find((a) => !isPublicAddress(a));
  if (bad !== undefined) throw privateAddress(url.hostname, bad);
  return { url, addresses };
}

/**
 * The origin of the local sandbox (SANDBOX_ORIGIN, set by the local runtime in sandbox mode), honoured only when
 * RUNTIME=local: the one private origin the guard lets through, for its /sandbox/ paths (the simulated networks).
 */
export function sandboxOrigin(): string | undefined {
  if (process.env.RUNTIME !== 'local') return undefined;
  const v = process.env.SANDBOX_ORIGIN?.trim();
  return v ? v : undefined;
}

function privateAddress(host: string, resolved?: string): UnsafeTargetError {
  const where = resolved ? `${host} resolves to ${resolved}` : host;
  return new UnsafeTargetError('private_address',
    `The link points to a private or local address (${where}); only public addresses are allowed`);
}

async function defaultLookup(host: string): Promise<string[]> {
  const found = await dns.lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

/** The eight 16-bit words of an IPv6 literal (zone id dropped, embedded dotted IPv4 tail accepted). */
function ipv6Words(ip: string): number[] | undefined {
  let s = ip.replace(/%.*$/, '').toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    s = `${s.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const words = [...head, ...new Array<number>(Math.max(fill, 0)).fill(0), ...tail];
  if (words.length !== 8 || words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return undefined;
  return words;
}

/**
 * The IPv4 address carried by an IPv6 address that stands for one (mapped ::ffff:0:0/96, IPv4-translated
 * ::ffff:0:0:0/96, compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16); undefined when it carries none.
 */
function embeddedIpv4(w: number[]): string | undefined {
  const v4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number): boolean => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return v4(w[6], w[7]); // ::ffff:a.b.c.d (mapped)
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return v4(w[6], w[7]); // ::ffff:0:a.b.c.d (translated)
  if (zeros(0, 6)) return v4(w[6], w[7]); // ::a.b.c.d (compatible), also :: and ::1 → 0.0.0.0 / 0.0.0.1
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return v4(w[6], w[7]); // NAT64 well-known prefix
  if (w[0] === 0x2002) return v4(w[1], w[2]); // 6to4
  return undefined;
}
