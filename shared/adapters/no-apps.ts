import type { AppRegistry } from '../ports/guardrails';

/** The app registry before MCP (issue 11) exists: no account has any AI app. */
export const noApps: AppRegistry = { exists: async () => false };
