import type { Deps } from '../deps';
import type { Connection } from '../../ports/publishing';
import { errorFields, log } from '../../log';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Tells the account's owner that a connection needs them to sign in again (connection.reauth_required) or will soon
 * (connection.expiring), with the brand's fresh connect link. Sent through the mailer port (SES in AWS, the local
 * outbox locally). A mailer failure is logged, never fails the caller: the webhook event is recorded either way.
 */
export async function emailOwner(
  deps: Pick<Deps, 'accounts' | 'mailer'>,
  connection: Connection,
  input: { kind: 'reauth_required'; error: string } | { kind: 'expiring'; expires_at: string },
  link: { url: string; expires_at: string },
  brandName: string | null,
): Promise<void> {
  try {
    const account = await deps.accounts.get(connection.account_id);
    if (!account) return;
    const who = `${connection.handle} on ${connection.platform}${brandName ? ` (brand ${brandName})` : ''}`;
    const subject = input.kind === 'reauth_required'
      ? `Sign in to ${connection.platform} again: ${connection.handle} can no longer post`
      : `${connection.platform} sign-in of ${connection.handle} ends on ${input.expires_at.slice(0, 10)}`;
    const why = input.kind === 'reauth_required'
      ? `The connection ${who} needs a new sign-in: ${input.error}`
      : `The connection ${who} stops working on ${input.expires_at} unless someone signs in again.`;
    await deps.mailer.send({
      to: account.email, subject,
      text: `${why}\n\nSign in again with this link (valid until ${link.expires_at}); the connection keeps its id:\n${link.url}\n`,
      html: `<p>${escape(why)}</p><p><a href="${escape(link.url)}">Sign in again</a> (valid until ${escape(link.expires_at)}); the connection keeps its id.</p>`,
      links: [link.url],
    });
  } catch (err) {
    log.error('connection email failed', { connection_id: connection.id, ...errorFields(err) });
  }
}
