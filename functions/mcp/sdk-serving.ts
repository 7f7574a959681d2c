/**
 * What the handler serves with beyond the fast answers: the MCP SDK's serving pieces and the server built on it
 * (server.ts), loaded together with one `import()` by the first request the fast answers do not cover (one lazily
 * loaded part of a split bundle: fewer chunk files to read then). The SDK's pieces are named rather than its whole
 * namespace imported: esbuild drops what a static import leaves unused, never what a dynamic import of the package
 * could reach (every export of the SDK would stay in the bundle).
 */
export { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
export { callsPublishingTool, mcpServer } from './server';
