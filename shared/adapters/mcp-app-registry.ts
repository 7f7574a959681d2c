import type { AppRegistry } from '../ports/guardrails';
import type { McpOAuthStore } from '../ports/mcp-oauth';

/** The AI apps the guardrails may name: the live apps of the MCP authorization server. */
export class McpAppRegistry implements AppRegistry {
  constructor(private readonly store: Pick<McpOAuthStore, 'getApp'>) {}

  async exists(accountId: string, appId: string): Promise<boolean> {
    const app = await this.store.getApp(accountId, appId);
    return app !== undefined && !app.revoked_at;
  }
}
