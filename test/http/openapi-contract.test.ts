import { Document, Spectral } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { openApiDocument } from '../../shared/http/openapi';
import { routeList, routes } from '../../functions/routes';
import type { RouteDef } from '../../shared/http/route';

/**
 * The OpenAPI document as a contract: Spectral's `spectral:oas` ruleset (offline, its JS packages) finds nothing, and
 * each route lists every status it can answer — what the shared middleware chain raises for a route of its kind
 * (written out here apart from the generator), and the codes its use cases raise for the publishing routes.
 */
const doc = openApiDocument(routeList, 'https://api.example.com') as { paths: Record<string, Record<string, { responses: Record<string, { description: string }>; description?: string }>> };
const op = (r: Pick<RouteDef, 'path' | 'method'>) => doc.paths[r.path][r.method.toLowerCase()];

describe('OpenAPI document', () => {
  it('passes spectral:oas (its recommended rules, as `extends: spectral:oas`) with 0 errors and 0 warnings', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas, 'recommended']] } as unknown as Parameters<Spectral['setRuleset']>[0]);
    const results = await spectral.run(new Document(JSON.stringify(doc, null, 2), Parsers.Json));
    expect(results.map((r) => `${r.code} ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  }, 60_000);

  it('every route lists what the middleware chain can answer for it', () => {
    for (const r of routeList) {
      const expected = new Set<number>([503]);
      if (r.auth === 'key') [401, 403, 429].forEach((s) => expected.add(s));
      if (r.auth === 'session') expected.add(403);
      if (r.rateLimit) expected.add(429);
      if (r.params) expected.add(404);
      if (r.query) expected.add(400);
      if (r.body) [400, 413].forEach((s) => expected.add(s));
      if (r.body && !r.rawBody) expected.add(415);
      const listed = Object.keys(op(r).responses).map(Number);
      expect([r.id, [...expected].filter((s) => !listed.includes(s))]).toEqual([r.id, []]);
      expect(op(r).description).toBeTruthy();
    }
  });

  it('publishing routes name the codes their use cases raise, under the status they answer with', () => {
    const raised: Array<[RouteDef, Record<number, string[]>]> = [
      [routes.postPost, { 400: ['caption_is_json', 'empty_text'], 403: ['key_scope', 'brand_not_allowed', 'key_monthly_cap_reached'], 404: ['brand_not_found'], 409: ['ambiguous_brand', 'duplicate_post'], 429: ['rate_limited'] }],
      [routes.postValidate, { 400: ['caption_is_json', 'invalid_run_at', 'scheduled_limit_reached'], 403: ['key_scope', 'brand_not_allowed', 'key_monthly_cap_reached'], 404: ['brand_not_found'], 409: ['ambiguous_brand', 'duplicate_post'] }],
      [routes.postSchedule, { 400: ['invalid_run_at', 'scheduled_limit_reached'], 403: ['key_scope', 'brand_not_allowed'], 404: ['brand_not_found'], 409: ['ambiguous_brand', 'duplicate_post'] }],
      [routes.postRecurring, { 403: ['key_scope', 'brand_not_allowed'], 404: ['brand_not_found'] }],
      [routes.getPost, { 404: ['not_found'] }],
    ];
    for (const [r, byStatus] of raised) {
      for (const [status, codes] of Object.entries(byStatus)) {
        const res = op(r).responses[status];
        expect([r.id, status, res ? codes.filter((c) => !res.description.includes(c)) : 'missing']).toEqual([r.id, status, []]);
      }
    }
  });
});
