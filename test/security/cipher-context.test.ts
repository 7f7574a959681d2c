process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { KmsEnvelopeCipher } from '../../shared/adapters/aws/kms-cipher';
import { LocalKeyCipher } from '../../shared/adapters/local/local-cipher';
import { connectionContext, webhookSecretContext } from '../../shared/app/security/contexts';
import { publishingWorld } from '../support/publishing';
import { readCredentials } from '../../shared/app/oauth/credentials';

const a = { account_id: 'acc_A', brand_id: 'brd_A', platform: 'telegram' };
const b = { account_id: 'acc_B', brand_id: 'brd_B', platform: 'telegram' };

describe('encrypted values are bound to their account and item', () => {
  it('local cipher (AES-GCM associated data): a value copied to another item, field or to no context fails', async () => {
    const cipher = new LocalKeyCipher(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spa-ctx-')), 'key'));
    const blob = await cipher.encrypt('{"bot_token":"123:abc"}', connectionContext(a, 'credentials'));
    expect(blob.startsWith('l2.')).toBe(true);
    expect(await cipher.decrypt(blob, connectionContext(a, 'credentials'))).toBe('{"bot_token":"123:abc"}');
    await expect(cipher.decrypt(blob, connectionContext(b, 'credentials'))).rejects.toThrow(/authentication/);
    await expect(cipher.decrypt(blob, connectionContext(a, 'tokens'))).rejects.toThrow(/authentication/);
    await expect(cipher.decrypt(blob, { ...connectionContext(a, 'credentials'), platform: 'discord' })).rejects.toThrow(/authentication/);
    await expect(cipher.decrypt(blob)).rejects.toThrow(/authentication/);
    // values stored before contexts still read
    const old = await cipher.encrypt('legacy');
    expect(old.startsWith('l1.')).toBe(true);
    expect(await cipher.decrypt(old, connectionContext(a, 'credentials'))).toBe('legacy');
  });

  it('KMS envelope cipher: the data key carries the context as KMS EncryptionContext, and the GCM data binds it too', async () => {
    const kms = mockClient(KMSClient);
    const DATA_KEY = Uint8Array.from({ length: 32 }, (_, i) => i + 7);
    kms.on(GenerateDataKeyCommand).resolves({ Plaintext: DATA_KEY, CiphertextBlob: Uint8Array.from([1, 2, 3]) });
    kms.on(DecryptCommand).resolves({ Plaintext: DATA_KEY });
    try {
      const ctx = webhookSecretContext({ account_id: 'acc_A', id: 'wh_1' });
      const blob = await new KmsEnvelopeCipher(new KMSClient({ region: 'us-east-1' }), 'alias/k').encrypt('whsec_x', ctx);
      expect(blob.startsWith('v2.')).toBe(true);
      expect(kms.commandCalls(GenerateDataKeyCommand)[0]!.args[0].input.EncryptionContext).toEqual({ account: 'acc_A', webhook: 'wh_1', field: 'secret' });
      const reader = new KmsEnvelopeCipher(new KMSClient({ region: 'us-east-1' }), 'alias/k');
      expect(await reader.decrypt(blob, ctx)).toBe('whsec_x');
      expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input.EncryptionContext).toEqual(ctx);
      // even when KMS would hand the data key out (a mock does), the GCM associated data refuses another item
      await expect(reader.decrypt(blob, webhookSecretContext({ account_id: 'acc_B', id: 'wh_1' }))).rejects.toThrow(/authentication/);
      // the wrong context never hits the cached key: it asked KMS again, with that context
      expect(kms.commandCalls(DecryptCommand).map((c) => c.args[0].input.EncryptionContext?.account)).toEqual(['acc_A', 'acc_B']);
    } finally {
      kms.restore();
    }
  });

  it("a connection's credentials copied into another account's connection do not decrypt there", async () => {
    const w = await publishingWorld();
    try {
      const accA = await w.newAccount();
      const accB = await w.newAccount();
      await w.connectTelegram(w.deps, accA);
      await w.connectTelegram(w.deps, accB);
      const [ca] = await w.deps.connections.listByAccount(accA.id);
      const [cb] = await w.deps.connections.listByAccount(accB.id);
      expect(await readCredentials(w.deps, ca!)).toMatchObject({ bot_token: w.telegram.token });
      // B's item with A's blob pasted in
      await expect(readCredentials(w.deps, { ...cb!, credentials_enc: ca!.credentials_enc })).rejects.toThrow(/authentication/);
    } finally {
      await w.stop();
    }
  });
});
