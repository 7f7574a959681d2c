import type { HttpHandlerOptions, HttpRequest, HttpResponse, HttpSigner, RequestHandler } from '@smithy/types';

/**
 * An AWS SDK request handler: what a client's `requestHandler` option takes in place of its HTTP one. With a
 * `signer`, the clients built over it sign with that instead of SigV4 (shared/adapters/aws/transport-signer.ts).
 */
export type SdkRequestHandler = RequestHandler<HttpRequest, HttpResponse, HttpHandlerOptions> & {
  updateHttpClientConfig(key: never, value: never): void;
  httpHandlerConfigs(): Record<string, never>;
  readonly signer?: HttpSigner;
};

/**
 * The local runtime's in-process transports (infra/local/in-process-requests.ts), one per embedded engine: the
 * runtime passes them to `buildDeps` (shared/container.ts), which gives them to the SDK clients it builds, so their
 * requests reach the engine without a socket or HTTP. The SDK's own path above the transport (middleware, serde,
 * SigV4, the IAM simulation's check on `send`) is the same as in AWS. An engine without one (tests that build their
 * own stand-ins, Lambda, operator tools) is reached over its endpoint.
 */
export interface EngineTransports {
  dynamodb?: SdkRequestHandler;
  sqs?: SdkRequestHandler;
}
