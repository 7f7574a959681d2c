/** The white label of an account (scope `account`) or one of its brands (scope = brand id) (spec §8.2). */
export interface Branding {
  account_id: string;
  scope: string;
  display_name: string;
  /** URL of the logo: the branding's own stored copy (`/branding/<account>-<hash>.<ext>`) or an https link. */
  logo_url?: string;
  /** Object key of the stored copy (`branding/<account>/<hash>.<ext>`, never expired), when the logo was an upload. */
  logo_key?: string;
  /** #rrggbb */
  accent?: string;
  support_email?: string;
  updated_at: string;
}

/** White-label settings, one item per (account, scope). */
export interface BrandingStore {
  get(accountId: string, scope: string): Promise<Branding | undefined>;
  put(b: Branding): Promise<void>;
  list(accountId: string): Promise<Branding[]>;
}
