import { mockClient } from 'aws-sdk-client-mock';
import { GetParametersByPathCommand, SSMClient } from '@aws-sdk/client-ssm';
import { SsmOAuthClients } from '../../shared/adapters/aws/ssm-oauth-clients';
import { envClients, firstOf } from '../../shared/adapters/env-oauth-clients';

const ssm = mockClient(SSMClient);
beforeEach(() => ssm.reset());

describe('OAuth client registrations from SSM Parameter Store', () => {
  it('reads every registration under the prefix once (paged, decrypted), then answers from memory', async () => {
    ssm.on(GetParametersByPathCommand, { Path: '/svc/oauth', Recursive: true, WithDecryption: true })
      .resolvesOnce({ Parameters: [{ Name: '/svc/oauth/x/client_id', Value: 'x-id' }, { Name: '/svc/oauth/linkedin/client_id', Value: 'li-only' }], NextToken: 'p2' })
      .resolvesOnce({ Parameters: [{ Name: '/svc/oauth/x/client_secret', Value: 'x-secret' }] });
    const clients = new SsmOAuthClients(new SSMClient({ region: 'us-east-1' }), '/svc/oauth/');
    expect(await clients.get('x')).toEqual({ clientId: 'x-id', clientSecret: 'x-secret' });
    expect(await clients.get('linkedin')).toBeUndefined();
    expect(await clients.get('tiktok')).toBeUndefined();
    const calls = ssm.commandCalls(GetParametersByPathCommand);
    expect(calls.map((c) => c.args[0].input)).toEqual([
      { Path: '/svc/oauth', Recursive: true, WithDecryption: true },
      { Path: '/svc/oauth', Recursive: true, WithDecryption: true, NextToken: 'p2' },
    ]);
  });

  it('a failed read is retried on the next use; the environment is the fallback', async () => {
    ssm.on(GetParametersByPathCommand).rejectsOnce(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }))
      .resolves({ Parameters: [{ Name: '/p/x/client_id', Value: 'a' }, { Name: '/p/x/client_secret', Value: 'b' }] });
    const clients = new SsmOAuthClients(new SSMClient({ region: 'us-east-1' }), '/p');
    await expect(clients.get('x')).rejects.toThrow(/denied/);
    expect(await clients.get('x')).toEqual({ clientId: 'a', clientSecret: 'b' });

    const both = firstOf(clients, envClients({ TIKTOK_CLIENT_ID: 'env-id', TIKTOK_CLIENT_SECRET: 'env-secret' }));
    expect(await both.get('tiktok')).toEqual({ clientId: 'env-id', clientSecret: 'env-secret' });
    expect(await envClients({ X_CLIENT_ID: 'only-id' }).get('x')).toBeUndefined();
  });
});
