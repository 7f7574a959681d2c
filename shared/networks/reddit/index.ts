import type { NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { guarded, request } from '../http';
import { field, formInit, idString, str } from '../oauth-tokens';
import { checkReddit, redditFailure, submission, submitErrors, submitFailure } from './rules';
import { redditReadBack } from './read-back';
import { createRedditManagement } from './manage';
import { trimBase } from '../../domain/values';
import { REDDIT_API_BASE, REDDIT_DEFAULT_USER_AGENT, type RedditOptions } from './oauth';
import { accessToken, createRedditVerifier } from './verify-credentials';

export { createRedditProvider, REDDIT_DEFAULT_USER_AGENT, type RedditOptions } from './oauth';
import { redditMetrics } from './analytics';

/**
 * Reddit adapter. ctx.credentials: `access_token` plus {username, user_id} from accounts().
 * Publish: `POST /api/submit` (form: sr, kind self|link, title, text | url, api_type=json) — see rules.ts for how the
 * title, the kind and the body are chosen (one media item becomes a link post to its URL; Reddit's own media upload
 * is not used). Answers are HTTP 200 even when refused: `json.errors` decides (RATELIMIT → rate_limited).
 * Result: id = `json.data.name` (t3_…), url = `json.data.url`, else https://www.reddit.com/comments/<id>/.
 */
export function createRedditAdapter(opts: RedditOptions = {}): NetworkAdapter {
  const apiBase = trimBase(opts.apiBase ?? REDDIT_API_BASE);
  const userAgent = opts.userAgent ?? REDDIT_DEFAULT_USER_AGENT;
  const token = accessToken;

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const t = token(ctx.credentials);
    if (typeof t !== 'string') return t;
    const invalid = checkReddit(content);
    if (invalid) return invalid;
    const sub = submission(content);
    if ('ok' in sub) return sub;
    const res = await request(ctx, `${apiBase}/api/submit`, formInit('POST', {
      api_type: 'json', sr: sub.sr, kind: sub.kind, title: sub.title, ...(sub.kind === 'self' ? { text: sub.text ?? '' } : { url: sub.url, resubmit: 'true' }),
    }, { authorization: `Bearer ${t}`, 'user-agent': userAgent }));
    if (res.status !== 200) return redditFailure(res, 'submit', ctx.now(), false);
    const errors = submitErrors(res.json);
    if (errors.length) return submitFailure(res.json, errors);
    const data = field(field(res.json, 'json'), 'data');
    const id = str(field(data, 'name')) ?? idString(field(data, 'id'));
    if (!id) return { ok: false, kind: 'transient', error: 'reddit accepted the submission but answered without its id' };
    const url = str(field(data, 'url')) ?? `https://www.reddit.com/comments/${id.replace(/^t3_/, '')}/`;
    return { ok: true, status: 'published', id, url };
  }

  return {
    name: 'reddit',
    verify: createRedditVerifier(opts).verify,
    check: checkReddit,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    readBack: redditReadBack(apiBase, userAgent),
    metrics: redditMetrics(apiBase, userAgent),
    ...createRedditManagement(apiBase, userAgent),
  };
}
