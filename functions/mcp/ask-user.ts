import * as z from 'zod';
import { inputRequired, ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { Cipher } from '../../shared/ports/cipher';
import type { Clock } from '../../shared/ports/clock';

/**
 * What the person behind the agent must do before a post can go out, with the link that does it: connect the networks
 * answered not_connected / reauth_required, or decide a held post in the dashboard. Every tool result carries it
 * plainly (`user_action`); a client that declared URL-mode elicitation is also asked through its revision's means.
 */
export const UserAction = z.object({
  kind: z.enum(['connect', 'approve']).describe('connect: open url to connect the networks; approve: the account owner decides in the dashboard'),
  url: z.string().describe('The page to open (a connect link valid 1 hour, or the dashboard approvals page)'),
  message: z.string().describe('What to tell the user, in one sentence'),
  platforms: z.array(z.string()).optional().describe('The networks concerned'),
});
export type UserAction = z.infer<typeof UserAction>;

/** A URL-mode elicitation: the message shown to the user and the page to open. */
export interface UrlElicitation { message: string; url: string }

/**
 * How one request may ask its user to open a page, by protocol revision:
 * - `input-required` (2026-07-28, the request's envelope declares `elicitation.url`): the tool answers the
 *   input-required result of multi round-trip requests; the client opens the page, then retries the same call with
 *   `inputResponses` (keys it answered) and the `requestState` the server minted, if any.
 * - `push` (2025-11-25, the session declared `elicitation.url` at initialize): an `elicitation/create` request in URL
 *   mode rides the tool call's event stream ahead of its result; the result stands on its own (the answer is not
 *   awaited: nothing waits on a stateless instance).
 * Absent: the client is never asked; the result's `user_action` says it plainly.
 */
export type Asking =
  | { kind: 'input-required'; answered: ReadonlySet<string>; state?: string }
  | { kind: 'push'; send(elicitation: UrlElicitation): Promise<void> };

/** The input request keys: one per kind of action, so a retry that answered one is never asked it again. */
const keyOf = (kind: UserAction['kind']) => kind;

const elicitation = (action: UserAction): UrlElicitation => ({ message: action.message, url: action.url });

/** The input-required answer asking the user to open the action's page (2026-07-28), with the server's state if any. */
export const askToOpen = (action: UserAction, requestState?: string): InputRequiredResult =>
  inputRequired({ inputRequests: { [keyOf(action.kind)]: inputRequired.elicitUrl(elicitation(action)) }, ...(requestState ? { requestState } : {}) });

/** Whether this request may still ask for this kind of action (2026-07-28: not when the retry answered it). */
export const mayAsk = (asking: Asking | undefined, kind: UserAction['kind']): asking is Extract<Asking, { kind: 'input-required' }> =>
  asking?.kind === 'input-required' && !asking.answered.has(keyOf(kind));

/** Pushes the elicitation of a 2025-11-25 session that can open URLs (the tool result says the same plainly). */
export async function pushAction(asking: Asking | undefined, action: UserAction | undefined): Promise<void> {
  if (asking?.kind === 'push' && action) await asking.send(elicitation(action));
}

/** The action a tool's output carries, if any. */
export const actionOf = (out: Record<string, unknown>): UserAction | undefined => {
  const parsed = UserAction.safeParse(out.user_action);
  return parsed.success ? parsed.data : undefined;
};

/** What sealing a result needs of a tool's context: the cipher, the clock and the caller's account. */
interface SealContext { deps: { cipher: Cipher; clock: Clock }; principal: { account: { id: string } } }

const STATE_TTL_MS = 3_600_000;
const State = z.object({ tool: z.string(), exp: z.number(), result: z.custom<CallToolResult>((v) => typeof v === 'object' && v !== null) });
const stateContext = (ctx: SealContext) => ({ account: ctx.principal.account.id, use: 'mcp-request-state' });

/**
 * The requestState of a call whose work is done (a held post): its finished result, sealed with the account's
 * authenticated encryption (AES-GCM / KMS data key, bound to the account), so the retry answers it without doing the
 * work twice. The client holds it for an hour; a state altered, foreign or expired is refused (spec: basic/patterns/mrtr,
 * the server MUST protect state that drives what it answers).
 */
export async function sealResult(ctx: SealContext, tool: string, result: CallToolResult): Promise<string> {
  return ctx.deps.cipher.encrypt(JSON.stringify({ tool, exp: ctx.deps.clock.now() + STATE_TTL_MS, result }), stateContext(ctx));
}

/** The finished result sealed in a retried call's requestState; -32602 when it is not one this server minted for this account and tool. */
export async function openResult(ctx: SealContext, tool: string, state: string): Promise<CallToolResult> {
  const refused = () => new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState is not valid here: call the tool again without it');
  let parsed: z.infer<typeof State>;
  try {
    parsed = State.parse(JSON.parse(await ctx.deps.cipher.decrypt(state, stateContext(ctx))));
  } catch {
    throw refused();
  }
  if (parsed.tool !== tool || parsed.exp < ctx.deps.clock.now()) throw refused();
  return parsed.result;
}
