import { GetParametersByPathCommand, type SSMClient } from '@aws-sdk/client-ssm';
import type { PlatformName } from '../../domain/platforms';
import type { OAuthClient, OAuthClients } from '../../ports/oauth';
import { trimBase } from '../../domain/values';

/**
 * OAuth client registrations from SSM Parameter Store: SecureString parameters
 * `<prefix>/<network>/client_id` and `<prefix>/<network>/client_secret` (e.g. /social-publishing/oauth/x/client_id),
 * read with one paged GetParametersByPath the first time a registration is needed, then kept for the life of the
 * Lambda instance. A failed read is retried on the next use.
 */
export class SsmOAuthClients implements OAuthClients {
  private loaded?: Promise<Map<string, string>>;
  private readonly prefix: string;

  constructor(private readonly client: SSMClient, prefix: string) {
    this.prefix = trimBase(prefix);
  }

  async get(platform: PlatformName): Promise<OAuthClient | undefined> {
    this.loaded ??= this.readAll().catch((err) => { this.loaded = undefined; throw err; });
    const params = await this.loaded;
    const clientId = params.get(`${this.prefix}/${platform}/client_id`);
    const clientSecret = params.get(`${this.prefix}/${platform}/client_secret`);
    return clientId && clientSecret ? { clientId, clientSecret } : undefined;
  }

  private async readAll(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    let next: string | undefined;
    do {
      const page = await this.client.send(new GetParametersByPathCommand({
        Path: this.prefix, Recursive: true, WithDecryption: true, ...(next ? { NextToken: next } : {}),
      }));
      for (const p of page.Parameters ?? []) if (p.Name && p.Value) out.set(p.Name, p.Value);
      next = page.NextToken;
    } while (next);
    return out;
  }
}
