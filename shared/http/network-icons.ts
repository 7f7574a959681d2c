import { escapeHtml as e } from './reply';
import type { NetworkDescriptor } from '../networks/descriptor';
import { NETWORKS } from '../networks/network-list';

/**
 * Network icons for every page that names a network (dashboard, Compose, connect page): small inline SVGs — a
 * rounded badge in the network's colour with its monogram in white (each colour has a contrast of at least 4.5:1
 * with white) — so nothing is fetched from another origin and the strict CSP needs no change. Each network's
 * monogram and colour are its descriptor's `icon` (shared/networks/<name>/network.ts). Beside a visible name the icon
 * is decorative (aria-hidden, no text of its own, so the name reads once); alone it is an image named by aria-label
 * and <title>.
 */

type Look = NetworkDescriptor['icon'];

/** A name not in the registry still gets a badge: its first letter on grey (#4a4a4a: 8.9:1 with white). */
function lookOf(platform: string, networks: readonly NetworkDescriptor[] = NETWORKS): Look {
  return networks.find((d) => d.name === platform)?.icon ?? { mark: platform.slice(0, 1).toUpperCase(), color: '#4a4a4a' };
}

/** The badge's hex colour (tests check its contrast). */
export const networkColor = (platform: string, networks?: readonly NetworkDescriptor[]) => lookOf(platform, networks).color;

/** Every network that has its own badge. */
export const ICON_NETWORKS = NETWORKS.map((d) => d.name as string);

/** The symbol id of a network's badge in the page's sprite. */
const symbolId = (platform: string) => `ni-${platform.replace(/[^a-z0-9_-]/gi, '')}`;

function symbol(platform: string): string {
  const look = lookOf(platform);
  const size = look.mark.length >= 3 ? 7 : look.mark.length === 2 ? 9 : 12;
  return `<symbol id="${symbolId(platform)}" viewBox="0 0 20 20"><rect width="20" height="20" rx="5" fill="${look.color}"/>` +
    `<text x="10" y="10" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-weight="700" font-size="${size}" fill="#fff">${e(look.mark)}</text></symbol>`;
}

const use = (platform: string, attrs: string, inner = '') =>
  `<svg class="net-icon" width="20" height="20" ${attrs}>${inner}<use href="#${symbolId(platform)}"/></svg>`;

/** The icon alone, named for assistive technology (role img, aria-label and title) by `label` (the network's name). */
export function networkIcon(platform: string, label: string = platform): string {
  label = e(label);
  return use(platform, `role="img" aria-label="${label}" focusable="false"`, `<title>${label}</title>`);
}

/**
 * The icon beside a visible name: decorative, and it adds no text to the element (a table cell reads "telegram",
 * not "Tg telegram"). `text` defaults to the network's id as the API names it.
 */
export function networkName(platform: string, text: string = platform): string {
  return `<span class="net">${use(platform, 'aria-hidden="true" focusable="false"')}${e(text)}</span>`;
}

/**
 * The page's icon sprite: one hidden SVG with a symbol per network the page shows (found by its references), so a
 * page carries only the badges it uses; the shells add it (empty when the page names no network).
 */
export function networkSprite(page: string): string {
  const used = [...new Set([...page.matchAll(/href="#ni-([a-z0-9_-]+)"/gi)].map((m) => m[1]))];
  if (!used.length) return '';
  return `<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false">${used.map(symbol).join('')}</svg>`;
}
