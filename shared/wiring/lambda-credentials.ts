/**
 * The credential chain of the SDK clients in a Lambda bundle: infra/bundling.ts has esbuild put this module in place
 * of `@aws-sdk/credential-provider-node` (the full default chain: SSO, INI files, processes, web identity, instance
 * metadata, with the STS/SSO clients they need, ~90 KB per function). In Lambda the execution role's credentials
 * are always in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), so that is the one
 * source read. Unbundled code (local runtime, tests, tools) keeps the SDK's own default chain.
 */
export function defaultProvider(): () => Promise<{ accessKeyId: string; secretAccessKey: string; sessionToken?: string; accountId?: string }> {
  return async () => {
    const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken, AWS_ACCOUNT_ID: accountId } = process.env;
    if (!accessKeyId || !secretAccessKey) throw new Error('No AWS credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY): Lambda sets them from the execution role');
    return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}), ...(accountId ? { accountId } : {}) };
  };
}
