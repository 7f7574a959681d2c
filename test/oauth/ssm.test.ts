import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { signV4, ssmClients, oauthClients } from '../../shared/app/oauth/ssm-clients';
import { envClients } from '../../shared/app/oauth/clients';
import { FakeServer } from '../fakes/server';
import type { Config } from '../../shared/config';

/** node:crypto as the SDK's hash interface, to compare our signer with the SDK's own. */
class NodeSha256 {
  private readonly h;
  constructor(secret?: string | Uint8Array) { this.h = secret ? createHmac('sha256', Buffer.from(secret)) : createHash('sha256'); }
  update(data: string | Uint8Array) { this.h.update(typeof data === 'string' ? Buffer.from(data) : Buffer.from(data)); }
  async digest() { return new Uint8Array(this.h.digest()); }
}

describe('SigV4 signing for SSM', () => {
  it('matches the AWS SDK signer for the same request', async () => {
    const now = new Date('2026-11-21T12:34:56Z');
    const url = new URL('https://ssm.eu-west-1.amazonaws.com/');
    const body = JSON.stringify({ Path: '/svc/oauth', Recursive: true, WithDecryption: true });
    const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };
    const ours = signV4({ method: 'POST', url, body, region: 'eu-west-1', service: 'ssm', now, ...creds, headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AmazonSSM.GetParametersByPath' } });
    const sdk = new SignatureV4({ service: 'ssm', region: 'eu-west-1', credentials: creds, sha256: NodeSha256 as never, applyChecksum: false });
    const signed = await sdk.sign({
      method: 'POST', protocol: 'https:', hostname: url.hostname, path: '/', query: {}, body,
      headers: { host: url.hostname, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AmazonSSM.GetParametersByPath' },
    }, { signingDate: now });
    expect(ours.authorization).toBe(signed.headers.authorization);
    expect(ours['x-amz-security-token']).toBe('session-token');
  });
});

describe('OAuth client registrations from SSM', () => {
  const ssm = new FakeServer();
  beforeAll(() => ssm.start());
  afterAll(() => ssm.stop());

  it('reads every registration under the prefix once (paged), then answers from memory', async () => {
    ssm.handler = (req) => {
      const body = req.json as { Path: string; NextToken?: string };
      return body.NextToken
        ? { body: { Parameters: [{ Name: '/svc/oauth/x/client_secret', Value: 'x-secret' }] } }
        : { body: { Parameters: [{ Name: '/svc/oauth/x/client_id', Value: 'x-id' }, { Name: '/svc/oauth/linkedin/client_id', Value: 'li-only' }], NextToken: 'p2' } };
    };
    const clients = ssmClients({ prefix: '/svc/oauth/', region: 'us-east-1', endpoint: ssm.url, credentials: () => ({ accessKeyId: 'AKID', secretAccessKey: 'secret' }) });
    expect(await clients.get('x')).toEqual({ clientId: 'x-id', clientSecret: 'x-secret' });
    expect(await clients.get('linkedin')).toBeUndefined();
    expect(await clients.get('tiktok')).toBeUndefined();
    expect(ssm.requests).toHaveLength(2);
    expect(ssm.requests[0].headers['x-amz-target']).toBe('AmazonSSM.GetParametersByPath');
    expect(ssm.requests[0].headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/us-east-1\/ssm\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=[0-9a-f]{64}$/);
    expect(ssm.requests[0].json).toEqual({ Path: '/svc/oauth', Recursive: true, WithDecryption: true, MaxResults: 10 });
    expect(ssm.requests[1].json).toMatchObject({ NextToken: 'p2' });
  });

  it('a failed read is retried on the next use; locally only the environment counts', async () => {
    ssm.requests.length = 0;
    let fail = true;
    ssm.handler = () => fail ? { status: 400, body: { __type: 'AccessDeniedException' } } : { body: { Parameters: [{ Name: '/p/x/client_id', Value: 'a' }, { Name: '/p/x/client_secret', Value: 'b' }] } };
    const clients = ssmClients({ prefix: '/p', region: 'us-east-1', endpoint: ssm.url, credentials: () => ({ accessKeyId: 'AKID', secretAccessKey: 'secret' }) });
    await expect(clients.get('x')).rejects.toThrow(/AccessDeniedException/);
    fail = false;
    expect(await clients.get('x')).toEqual({ clientId: 'a', clientSecret: 'b' });

    const local = oauthClients({ RUNTIME: 'local', OAUTH_SSM_PREFIX: '/p', X_CLIENT_ID: 'env-id', X_CLIENT_SECRET: 'env-secret' } as Config);
    expect(await local.get('x')).toEqual({ clientId: 'env-id', clientSecret: 'env-secret' });
    expect(await envClients({ X_CLIENT_ID: 'only-id' }).get('x')).toBeUndefined();
  });
});
