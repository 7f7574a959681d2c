import { randomUUID } from 'node:crypto';

/**
 * What a 2025-era client declared at initialize, carried by the client itself: the server keeps no session (each POST
 * is a fresh instance), so the initialize answer of a client that can open URLs for its user (2025-11-25,
 * `capabilities.elicitation.url`) gets an `Mcp-Session-Id` naming that ability, which the client sends back on every
 * request (Streamable HTTP 2025-11-25: a session id may be a self-contained token, visible ASCII). Other clients get
 * no session id, as before. A client that forges the suffix only changes what it is itself asked.
 */
const URL_ELICITATION = '.url-elicitation';

/** The first 2025 revision that has URL-mode elicitation. */
const URL_ELICITATION_SINCE = '2025-11-25';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The session id for an initialize request whose client can be asked to open a URL, else undefined. */
export function sessionIdFor(body: unknown): string | undefined {
  if (!isObject(body) || body.method !== 'initialize' || !isObject(body.params)) return undefined;
  const { protocolVersion, capabilities } = body.params;
  const elicitation = isObject(capabilities) ? capabilities.elicitation : undefined;
  if (typeof protocolVersion !== 'string' || protocolVersion < URL_ELICITATION_SINCE) return undefined;
  return isObject(elicitation) && isObject(elicitation.url) ? `${randomUUID()}${URL_ELICITATION}` : undefined;
}

/** Whether the client of this session id declared URL-mode elicitation at initialize. */
export const canOpenUrls = (sessionId: string | null | undefined): boolean => !!sessionId?.endsWith(URL_ELICITATION);

/** The id of a single JSON-RPC tools/call request (the one request a tool's elicitation rides along), else undefined. */
export function toolCallId(body: unknown): string | number | undefined {
  if (!isObject(body) || body.method !== 'tools/call') return undefined;
  return typeof body.id === 'string' || typeof body.id === 'number' ? body.id : undefined;
}
