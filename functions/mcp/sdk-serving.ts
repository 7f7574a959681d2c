/**
 * The MCP SDK's serving pieces the handler uses, loaded with `import()` by the first request the fast answers do not
 * cover. Named here rather than imported as the SDK's whole namespace: esbuild drops what a static import leaves
 * unused, never what a dynamic import of the package could reach (every export of the SDK would stay in the bundle).
 */
export { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
