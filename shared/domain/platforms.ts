/**
 * The networks, exactly as GET /api/platforms serves them: the 16 of spec §2.1, then threads, pinterest and
 * google_business (docs/networks.md "Adding a network"). One table; everything else reads it.
 */
export const PLATFORM_NAMES = [
  'telegram', 'bluesky', 'mastodon', 'discord', 'wordpress', 'devto', 'hashnode', 'slack', 'nostr',
  'tiktok', 'youtube', 'reddit', 'linkedin', 'facebook', 'instagram', 'x',
  'threads', 'pinterest', 'google_business',
] as const;
export type PlatformName = (typeof PLATFORM_NAMES)[number];

export type Needs = 'text' | 'photo_or_video' | 'video';

export interface Platform {
  name: PlatformName;
  audit_required: boolean;
  oauth: boolean;
  fields: string[];
  optional_fields?: string[];
  kind?: 'article';
  available: boolean;
  needs: Needs;
  max_media: number;
  addon?: { kind: 'x_credits'; paid_plans_only: boolean; rule: string; details: string };
}

const cred = (name: PlatformName, fields: string[], max_media: number, extra: Partial<Platform> = {}): Platform => ({
  name, audit_required: false, oauth: false, fields, ...extra, available: true, needs: 'text', max_media,
});
const oauth = (name: PlatformName, needs: Needs, max_media: number, available = true): Platform => ({
  name, audit_required: true, oauth: true, fields: [], available, needs, max_media,
});

export const X_CREDIT_RULE = '1 credit is one X post. A post containing a link uses 10 credits. Each image or video adds 1 credit.';

export const PLATFORMS: readonly Platform[] = [
  cred('telegram', ['bot_token', 'chat_id'], 1),
  cred('bluesky', ['handle', 'app_password'], 4),
  cred('mastodon', ['instance_url', 'access_token'], 4),
  cred('discord', ['webhook_url'], 1),
  cred('wordpress', ['site_url', 'username', 'app_password'], 1, { optional_fields: ['default_status'], kind: 'article' }),
  cred('devto', ['api_key'], 1, { optional_fields: ['default_status'], kind: 'article' }),
  cred('hashnode', ['token'], 1, { optional_fields: ['publication', 'default_status'], kind: 'article' }),
  cred('slack', ['webhook_url'], 1),
  cred('nostr', ['nsec'], 1, { optional_fields: ['relays'] }),
  oauth('tiktok', 'photo_or_video', 35),
  oauth('youtube', 'video', 1),
  oauth('reddit', 'text', 1, false),
  oauth('linkedin', 'text', 20),
  oauth('facebook', 'text', 1),
  oauth('instagram', 'photo_or_video', 10),
  { ...oauth('x', 'text', 4), addon: { kind: 'x_credits', paid_plans_only: true, rule: X_CREDIT_RULE, details: '/api/x' } },
  oauth('threads', 'text', 20),
  oauth('pinterest', 'photo_or_video', 1),
  oauth('google_business', 'text', 1),
];

const BY_NAME = new Map(PLATFORMS.map((p) => [p.name, p]));

export function isPlatformName(name: string): name is PlatformName {
  return BY_NAME.has(name as PlatformName);
}

export function platform(name: PlatformName): Platform {
  return BY_NAME.get(name)!;
}

export const CREDENTIAL_PLATFORMS = PLATFORMS.filter((p) => !p.oauth).map((p) => p.name);
export const OAUTH_PLATFORMS = PLATFORMS.filter((p) => p.oauth).map((p) => p.name);

/**
 * Prefix of a network's environment variables (`<NAME>_CLIENT_ID`…): `x` → `X`, `linkedin` → `LINKEDIN`,
 * `google_business` → `GOOGLE_BUSINESS`.
 */
export const envName = (platform: PlatformName) => platform.toUpperCase();
