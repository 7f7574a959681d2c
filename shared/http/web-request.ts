import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * An API Gateway v2 / function URL event as a WHATWG Request (for libraries that speak fetch's types, such as the
 * MCP SDK's web-standard transport). Cookies are left out: nothing behind such a library reads them. `body` left out
 * (a caller that hands the library the body already parsed): a Request without one, so no body stream is built.
 */
export function toWebRequest(event: APIGatewayProxyEventV2, body?: string): Request {
  const host = event.requestContext?.domainName ?? 'localhost';
  const url = `https://${host}${event.rawPath ?? '/'}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
  const headers = new Headers();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (v !== undefined) headers.set(k, v);
  const method = event.requestContext?.http?.method ?? 'POST';
  return new Request(url, { method, headers, ...(body === undefined || method === 'GET' || method === 'HEAD' ? {} : { body }) });
}

/** A WHATWG Response as a Lambda result (text bodies: JSON or a buffered event stream). */
export async function fromWebResponse(res: Response, extraHeaders: Record<string, string> = {}): Promise<APIGatewayProxyStructuredResultV2> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => { headers[k] = v; });
  return { statusCode: res.status, headers: { ...headers, ...extraHeaders }, body: await res.text() };
}
