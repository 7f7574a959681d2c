import type { NetworkAdapter, NetworkContext, PostOptions, PublishContent, PublishOutcome } from '../../ports/networks';
import { guarded, jsonInit, request } from '../http';
import { field, str } from '../oauth-tokens';
import { bearer } from '../youtube/oauth';
import { gbpHosts, googleBusinessFailure, type GoogleBusinessOptions } from './oauth';
import { checkGoogleBusiness } from './limits';
import { googleBusinessReadBack } from './read-back';
import { createGoogleBusinessVerifier, location } from './verify-credentials';

export { createGoogleBusinessProvider } from './oauth';

/** A local date-time `YYYY-MM-DD[THH:MM]` as Google's Date and TimeOfDay. */
function dateParts(value: string): { date: { year: number; month: number; day: number }; time?: { hours: number; minutes: number; seconds: number; nanos: number } } {
  const [d, t] = value.split('T');
  const [year, month, day] = d.split('-').map(Number);
  const out: ReturnType<typeof dateParts> = { date: { year, month, day } };
  if (t) {
    const [hours, minutes] = t.split(':').map(Number);
    out.time = { hours, minutes, seconds: 0, nanos: 0 };
  }
  return out;
}

/** The LocalPost body for this content: topicType from the options (offer → OFFER, event → EVENT, else STANDARD). */
export function localPostBody(content: PublishContent): Record<string, unknown> {
  const o: PostOptions = content.options ?? {};
  const topicType = o.offer ? 'OFFER' : o.event ? 'EVENT' : 'STANDARD';
  const body: Record<string, unknown> = { topicType };
  if (content.text) body.summary = content.text;
  if (o.event) {
    const start = dateParts(o.event.start);
    const end = dateParts(o.event.end);
    body.event = {
      title: o.event.title,
      schedule: { startDate: start.date, ...(start.time ? { startTime: start.time } : {}), endDate: end.date, ...(end.time ? { endTime: end.time } : {}) },
    };
  }
  if (o.offer) {
    body.offer = {
      ...(o.offer.coupon_code ? { couponCode: o.offer.coupon_code } : {}),
      ...(o.offer.redeem_url ? { redeemOnlineUrl: o.offer.redeem_url } : {}),
      ...(o.offer.terms ? { termsConditions: o.offer.terms } : {}),
    };
  }
  if (o.call_to_action) body.callToAction = { actionType: o.call_to_action.type, ...(o.call_to_action.url ? { url: o.call_to_action.url } : {}) };
  if (content.media[0]) body.media = [{ mediaFormat: 'PHOTO', sourceUrl: content.media[0].url }];
  return body;
}

/**
 * Google Business Profile adapter: one post on the location picked at connect,
 * `POST /v4/accounts/{account}/locations/{location}/localPosts` with the LocalPost body (localPostBody: summary,
 * topicType STANDARD / EVENT / OFFER, event {title, schedule}, offer {couponCode, redeemOnlineUrl, termsConditions},
 * callToAction {actionType, url}, one photo by sourceUrl, which Google fetches). The answer's `name` is the post's id
 * and `searchUrl` its public link.
 */
export function createGoogleBusinessAdapter(opts: GoogleBusinessOptions = {}): NetworkAdapter {
  const hosts = gbpHosts(opts);

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const l = location(ctx.credentials);
    if ('ok' in l) return l;
    const invalid = checkGoogleBusiness(content);
    if (invalid) return invalid;
    const path = `/v4/accounts/${encodeURIComponent(l.accountId)}/locations/${encodeURIComponent(l.locationId)}/localPosts`;
    const res = await request(ctx, `${hosts.posts}${path}`, jsonInit('POST', localPostBody(content), bearer(l.token)));
    if (res.status !== 200) return googleBusinessFailure(res, 'local post');
    const name = str(field(res.json, 'name'));
    if (!name) return { ok: false, kind: 'transient', error: 'google_business answered without the post name' };
    if (str(field(res.json, 'state')) === 'REJECTED') return { ok: false, kind: 'rejected', code: 'rejected', error: 'google_business rejected the post (content policy): change the text or photo and post again' };
    const url = str(field(res.json, 'searchUrl')) ?? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(l.title ?? l.locationId)}`;
    return { ok: true, status: 'published', id: name, url };
  }

  return {
    name: 'google_business',
    verify: createGoogleBusinessVerifier(opts).verify,
    check: checkGoogleBusiness,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    readBack: googleBusinessReadBack(hosts.posts),
  };
}
