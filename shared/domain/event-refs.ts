/* How events name a brand and a connected account. */

/** The human label of a connected account in events, e.g. `Acme · @acme (bluesky)`. */
export const labelOf = (brandName: string, handle: string, platform: string) => `${brandName} · ${handle} (${platform})`;

/** How every event names a brand (docs/webhooks.md): `brand: {id, name}`, next to `brand_id`. */
export const brandRef = (id: string, name: string | null) => ({ id, name });
