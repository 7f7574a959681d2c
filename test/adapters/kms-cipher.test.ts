process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { KmsEnvelopeCipher } from '../../shared/adapters/aws/kms-cipher';

const kms = mockClient(KMSClient);
const KEY_ID = 'alias/social-publishing';
const DATA_KEY = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const WRAPPED = Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03]);

function cipher(): KmsEnvelopeCipher {
  return new KmsEnvelopeCipher(new KMSClient({ region: 'us-east-1' }), KEY_ID);
}

beforeEach(() => {
  kms.reset();
  kms.on(GenerateDataKeyCommand).resolves({ Plaintext: DATA_KEY, CiphertextBlob: WRAPPED, KeyId: 'arn:key' });
  kms.on(DecryptCommand).resolves({ Plaintext: DATA_KEY, KeyId: 'arn:key' });
});

describe('KmsEnvelopeCipher', () => {
  it('encrypts with a fresh data key into the v1 format', async () => {
    const token = await cipher().encrypt('bot-token-123');
    expect(kms.commandCalls(GenerateDataKeyCommand)[0]!.args[0].input).toEqual({ KeyId: KEY_ID, KeySpec: 'AES_256' });
    const parts = token.split('.');
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe('v1');
    expect(Buffer.from(parts[1]!, 'base64url')).toEqual(Buffer.from(WRAPPED));
    expect(Buffer.from(parts[2]!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(parts[3]!, 'base64url')).toHaveLength(16);
    expect(token).not.toContain('bot-token-123');
    expect(token).not.toContain(Buffer.from(DATA_KEY).toString('base64url'));
  });

  it('round-trips through KMS Decrypt, and a second decrypt of the same data key hits the cache', async () => {
    const token = await cipher().encrypt('s3cr3t ✓ unicode');
    const reader = cipher(); // a fresh instance (another Lambda) knows no keys yet
    expect(await reader.decrypt(token)).toBe('s3cr3t ✓ unicode');
    const decrypts = kms.commandCalls(DecryptCommand);
    expect(decrypts).toHaveLength(1);
    expect(decrypts[0]!.args[0].input).toEqual({ CiphertextBlob: Buffer.from(WRAPPED) });

    expect(await reader.decrypt(token)).toBe('s3cr3t ✓ unicode');
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(1);
  });

  it('decrypts what it just encrypted without calling KMS Decrypt', async () => {
    const c = cipher();
    expect(await c.decrypt(await c.encrypt('hello'))).toBe('hello');
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });

  it('uses a random IV: the same plaintext encrypts differently', async () => {
    const c = cipher();
    expect(await c.encrypt('same')).not.toBe(await c.encrypt('same'));
  });

  it('rejects a tampered ciphertext', async () => {
    const c = cipher();
    const parts = (await c.encrypt('hello world')).split('.');
    const body = Buffer.from(parts[4]!, 'base64url');
    body[0] = body[0]! ^ 0xff;
    parts[4] = body.toString('base64url');
    await expect(c.decrypt(parts.join('.'))).rejects.toThrow('failed authentication');
  });

  it('rejects an unknown format', async () => {
    await expect(cipher().decrypt('l1.a.b.c')).rejects.toThrow('Unsupported ciphertext format');
    await expect(cipher().decrypt('plain')).rejects.toThrow('Unsupported ciphertext format');
  });

  it('evicts beyond 100 cached keys', async () => {
    const reader = cipher();
    let n = 0;
    kms.on(GenerateDataKeyCommand).callsFake(() => ({ Plaintext: DATA_KEY, CiphertextBlob: Uint8Array.from([n >> 8, n++ & 0xff]) }));
    const writer = cipher();
    const tokens: string[] = [];
    for (let i = 0; i < 101; i++) tokens.push(await writer.encrypt(`v${i}`));
    for (const t of tokens) await reader.decrypt(t);
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(101);
    await reader.decrypt(tokens[100]!); // still cached
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(101);
    await reader.decrypt(tokens[0]!); // the oldest was evicted
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(102);
  });
});
