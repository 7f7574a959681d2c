import type { PlatformName } from '../domain/platforms';
import type { CapHolder } from '../domain/guardrails';

/** The limits an owner sets on one actor (an API key, or an MCP AI app) from the dashboard (spec §5.6). */
export interface Guardrails {
  account_id: string;
  kind: 'key' | 'app';
  id: string;
  /** Networks published a month by this actor; null: no cap beyond the plan. */
  monthly_post_cap: number | null;
  /** null: every network. */
  allowed_platforms: PlatformName[] | null;
  /** null: every brand. */
  allowed_brands: string[] | null;
  always_require_approval: boolean;
  updated_at: string;
}

/** The guardrails in force for an actor: its own combined with those of the keys above it (domain/guardrails.ts). */
export type EffectiveGuardrails = Guardrails & { caps: CapHolder[] };

/** Guardrails per (account, kind, id). A write replaces the actor's guardrails as a whole (PUT). */
export interface GuardrailStore {
  get(accountId: string, kind: Guardrails['kind'], id: string): Promise<Guardrails | undefined>;
  put(g: Guardrails): Promise<void>;
  list(accountId: string): Promise<Guardrails[]>;
}

/**
 * The registry of AI apps (MCP OAuth clients) an account has authorised. Until the MCP branch plugs in
 * its adapter, no app exists (PUT /api/guardrails/app/{id} answers 404).
 */
export interface AppRegistry {
  exists(accountId: string, appId: string): Promise<boolean>;
}
