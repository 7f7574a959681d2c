import type { HttpAuthScheme, HttpSigner } from '@smithy/types';
import type { SdkRequestHandler } from '../local/in-process-transport';

/**
 * The client options for a given request handler: the handler itself and, when it brings a signer of its own (the
 * local runtime's in-process transports: the engine behind them checks that a request is signed, never its
 * signature), that signer in place of SigV4's for the client's `aws.auth#sigv4` scheme. Everything else on the
 * client's path (credentials, middleware, serde, retries) is unchanged. No handler → no options (AWS, HTTP endpoints).
 */
export function requestHandlerOptions(handler: SdkRequestHandler | undefined): { requestHandler?: SdkRequestHandler; httpAuthSchemes?: HttpAuthScheme[] } {
  if (!handler) return {};
  if (!handler.signer) return { requestHandler: handler };
  return { requestHandler: handler, httpAuthSchemes: [sigV4SignedBy(handler.signer)] };
}

const sigV4SignedBy = (signer: HttpSigner): HttpAuthScheme => ({
  schemeId: 'aws.auth#sigv4',
  // the client's own credentials, resolved as for SigV4
  identityProvider: (config) => config.getIdentityProvider('aws.auth#sigv4'),
  signer,
});
