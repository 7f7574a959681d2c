import type { SdkRequestHandler } from '../local/in-process-transport';

/**
 * The SDK middlewares whose only reader is an HTTP server in AWS: the user-agent headers (AWS's telemetry), the
 * Content-Length header (HTTP framing) and the X-Ray trace header of Lambda's recursion detection. An in-process
 * transport (the local runtime's, infra/local/in-process-requests.ts) hands the request to an engine that reads none
 * of them, so its clients go without; serde, endpoint, credentials, signing (the transport's own signer), retries and
 * the typed errors stay the SDK's.
 */
export const HTTP_ONLY_MIDDLEWARE = ['getUserAgentMiddleware', 'contentLengthMiddleware', 'recursionDetectionMiddleware'] as const;

interface SdkClient {
  config: object;
  middlewareStack: { remove(name: string): boolean };
}

/**
 * A client over an in-process transport (one that brings its own signer) made cheaper per call, without changing
 * what the engine receives beyond the headers above. Any other client (AWS, an endpoint over HTTP) is left as it is.
 *
 * - The HTTP-only middlewares are taken out of its stack.
 * - Its configuration becomes a copy with the same properties (accessors included: `credentials` keeps its
 *   closure). The SDK builds a client's configuration by adding some fifty properties one by one, which leaves the
 *   object in V8's dictionary mode, and its endpoint, serializer and deserializer middlewares each spread the whole
 *   configuration into a new object on every call (`{ ...config, ...context }`): about 17 µs a spread on a
 *   dictionary-mode object, about 1.5 µs on the copy, which V8 lays out as an ordinary object. The copy is what
 *   `send` hands every command; the middlewares the client added at construction keep the original object, and
 *   both hold the same values (the one value the SDK reassigns after construction, `systemClockOffset`, is
 *   written by SigV4's signer, which an in-process transport replaces).
 */
export function fitForInProcess<C extends SdkClient>(client: C, handler: SdkRequestHandler | undefined): C {
  if (!handler?.signer) return client;
  for (const name of HTTP_ONLY_MIDDLEWARE) client.middlewareStack.remove(name);
  client.config = Object.defineProperties({}, Object.getOwnPropertyDescriptors(client.config));
  return client;
}
