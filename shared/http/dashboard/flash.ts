/** What a page says after a form post redirected back to it (`?done=` or `?error=` codes, never free text). */
const DONE: Record<string, string> = {
  created: 'Created.', revoked: 'Revoked: it stops working at once.', guardrails: 'Guardrails saved.', saved: 'Saved.', deleted: 'Deleted.',
  tested: 'A webhook.test event is on its way.', redelivered: 'Queued for delivery again.', rule: 'The approval rule is saved.',
  approved: 'Approved: the post is being published.', approved_not_published: 'Approved, but the post could not be published: “Recent decisions” below says why, and the post’s page shows each network.', rejected: 'Rejected: nothing was published.', disconnected: 'Disconnected.',
};
const ERRORS: Record<string, string> = {
  plan_feature: 'Your plan does not include this. See the Plan page.', not_found: 'That no longer exists.', key_not_found: 'That key no longer exists.',
  brand_not_found: 'That brand no longer exists.', invalid_request: 'Some fields were not valid; nothing was changed.', approval_decided: 'That post was already decided.',
  brand_limit_reached: 'Your plan’s brand limit is reached. See the Plan page.', webhook_limit_reached: 'Your plan’s webhook limit is reached. See the Plan page.',
  rate_limited: 'Too many requests; try again in a minute.',
  invalid_logo: 'The logo was not saved: use an https link, or the media_url of an image you uploaded (at most 2 MB, not older than 30 days).',
};

export function flashOf(q: { done?: string; error?: string }): { kind: 'ok' | 'error'; text: string } | undefined {
  // own entries only: ?done=__proto__ or ?error=constructor name nothing
  if (q.error) return { kind: 'error', text: Object.hasOwn(ERRORS, q.error) ? ERRORS[q.error] : `That did not work (${q.error.replace(/[^a-z_]/g, '')}); nothing was changed.` };
  if (q.done && Object.hasOwn(DONE, q.done)) return { kind: q.done === 'approved_not_published' ? 'error' : 'ok', text: DONE[q.done] };
  return undefined;
}
