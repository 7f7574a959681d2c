import type { PlatformName } from '../domain/platforms';

/** Whether a network can take back (delete) and fix (edit) a published post through its API. */
export interface ManageFlags {
  delete: boolean;
  edit: boolean;
}

/**
 * The delete / edit facts of each network, as static flags apart from the send code (GET /api/platforms and the API's
 * checks read these; the worker calls the adapter's `delete` / `edit`, and a test holds each flag equal to the
 * adapter's member). Sources per network: docs/networks.md "Delete and edit". A network missing here has neither.
 */
export const MANAGE_FLAGS: Partial<Record<PlatformName, ManageFlags>> = {
  mastodon: { delete: true, edit: true },
  telegram: { delete: true, edit: true },
  discord: { delete: true, edit: true },
  bluesky: { delete: true, edit: false },
  x: { delete: true, edit: false },
  facebook: { delete: true, edit: true },
  linkedin: { delete: true, edit: true },
  youtube: { delete: true, edit: true },
  reddit: { delete: true, edit: true },
  devto: { delete: true, edit: true },
  hashnode: { delete: true, edit: true },
  wordpress: { delete: true, edit: true },
};

export function manageFlags(platform: PlatformName): ManageFlags {
  return MANAGE_FLAGS[platform] ?? { delete: false, edit: false };
}
