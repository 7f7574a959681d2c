import { timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Set on every origin request by the edge stack (a CloudFront origin custom header); a viewer cannot set it. */
export const EDGE_SECRET_HEADER = 'x-origin-verify';
/** Set by the edge stack's viewer-request function from the address CloudFront saw (a viewer's own value is replaced). */
export const EDGE_VIEWER_IP_HEADER = 'x-edge-viewer-ip';

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Whether the request came through the edge stack: it carries the secret origin header CloudFront adds. */
export function fromEdge(headers: Record<string, string | undefined> | undefined, edgeSecret: string): boolean {
  const presented = headers?.[EDGE_SECRET_HEADER];
  return !!presented && same(presented, edgeSecret);
}

/**
 * The caller's address for per-IP limits: API Gateway's `sourceIp`, except behind the edge stack (`-c waf=true`),
 * where that is a CloudFront address shared by many viewers — then the viewer address CloudFront forwards, trusted
 * only when the request carries the edge's secret origin header (`edgeSecret`, EDGE_ORIGIN_SECRET), so a request
 * sent straight to the execute-api endpoint cannot choose its own address.
 */
export function clientIp(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>, edgeSecret: string | undefined): string {
  const source = event.requestContext?.http?.sourceIp ?? 'unknown';
  if (!edgeSecret) return source;
  const viewer = event.headers?.[EDGE_VIEWER_IP_HEADER]?.trim();
  if (!viewer || !fromEdge(event.headers, edgeSecret)) return source;
  return /^[0-9a-fA-F:.]{2,45}$/.test(viewer) ? viewer : source;
}
