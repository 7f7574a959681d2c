import type { HttpHandlerOptions, HttpRequest, HttpResponse, RequestHandler } from '@smithy/types';

/** An AWS SDK request handler: what a client's `requestHandler` option takes in place of its HTTP one. */
export type SdkRequestHandler = RequestHandler<HttpRequest, HttpResponse, HttpHandlerOptions> & {
  updateHttpClientConfig(key: never, value: never): void;
  httpHandlerConfigs(): Record<string, never>;
};

type Engine = 'dynamodb' | 'sqs';
const transports = new Map<Engine, SdkRequestHandler>();

/**
 * The local runtime's in-process transports: the runtime hands each embedded engine's request handler in here when
 * the engine starts (and takes it back at stop), and the container gives it to the SDK clients it builds, so their
 * requests reach the engine without a socket or HTTP. The SDK's own path above the transport (middleware, serde,
 * SigV4, the IAM simulation's check on `send`) is the same as in AWS. Nothing registered (tests that build their own
 * stand-ins, Lambda) → the clients use their endpoint over HTTP.
 */
export const inProcessTransport = (engine: Engine): SdkRequestHandler | undefined => transports.get(engine);

export function provideInProcessTransport(engine: Engine, handler: SdkRequestHandler | undefined): void {
  if (handler) transports.set(engine, handler);
  else transports.delete(engine);
}
