import { config } from '../../config';
import { ForbiddenError } from '../../domain/errors';
import { fromEdge } from '../client-ip';
import type { Mw, Req } from './request-state';

/**
 * Behind the edge stack (`-c waf=true`, EDGE_ORIGIN_SECRET set), only requests that came through CloudFront and its
 * WAF are served: one sent straight to the execute-api endpoint lacks the secret origin header and gets 403, so the
 * WAF rules and per-IP limits cannot be bypassed. (With `-c apiDomainName` the execute-api endpoint is disabled
 * altogether; this guard stays as the second lock.) Without the edge stack nothing changes.
 */
export function edgeOnly(): Mw {
  return {
    before: (req: Req) => {
      const secret = config().EDGE_ORIGIN_SECRET;
      if (secret && !fromEdge(req.event.headers, secret)) {
        throw new ForbiddenError('This API is served through its public address (CloudFront with WAF): send the request there, not to the execute-api endpoint');
      }
    },
  };
}
