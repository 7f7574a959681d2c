import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import type { Cipher } from '../../ports/cipher';
import { aesGcmDecrypt, aesGcmEncrypt } from '../aes-gcm';

const VERSION = 'v1';
const CACHE_MAX = 100;

/**
 * The Cipher port as KMS envelope encryption: each encrypt asks KMS for a fresh AES-256 data key, encrypts locally
 * with AES-256-GCM, and stores the KMS-encrypted data key alongside:
 * `v1.<encrypted data key>.<iv>.<tag>.<ciphertext>` (all base64url). Decrypt asks KMS to decrypt the data key;
 * plaintext data keys are kept in a small in-memory LRU (at most 100) to spare KMS calls. Key material is never
 * logged or put in error messages.
 */
export class KmsEnvelopeCipher implements Cipher {
  private readonly keys = new Map<string, Uint8Array>();

  constructor(
    private readonly client: KMSClient,
    private readonly keyId: string,
  ) {}

  async encrypt(plaintext: string): Promise<string> {
    const out = await this.client.send(new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256' }));
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS GenerateDataKey returned no key');
    const wrappedKey = Buffer.from(out.CiphertextBlob).toString('base64url');
    const dataKey = Uint8Array.from(out.Plaintext);
    this.remember(wrappedKey, dataKey);
    const { iv, tag, ciphertext } = aesGcmEncrypt(dataKey, plaintext);
    return [VERSION, wrappedKey, iv, tag, ciphertext].join('.');
  }

  async decrypt(token: string): Promise<string> {
    const parts = token.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) throw new Error('Unsupported ciphertext format');
    const [, wrappedKey, iv, tag, ciphertext] = parts as [string, string, string, string, string];
    const dataKey = await this.dataKey(wrappedKey);
    return aesGcmDecrypt(dataKey, { iv, tag, ciphertext });
  }

  private async dataKey(wrappedKey: string): Promise<Uint8Array> {
    const cached = this.keys.get(wrappedKey);
    if (cached) {
      this.remember(wrappedKey, cached); // refresh its place in the LRU
      return cached;
    }
    const out = await this.client.send(new DecryptCommand({ CiphertextBlob: Buffer.from(wrappedKey, 'base64url') }));
    if (!out.Plaintext) throw new Error('KMS Decrypt returned no key');
    const dataKey = Uint8Array.from(out.Plaintext);
    this.remember(wrappedKey, dataKey);
    return dataKey;
  }

  private remember(wrappedKey: string, dataKey: Uint8Array): void {
    this.keys.delete(wrappedKey);
    this.keys.set(wrappedKey, dataKey);
    while (this.keys.size > CACHE_MAX) {
      const oldest = this.keys.keys().next().value;
      if (oldest === undefined) break;
      this.keys.delete(oldest);
    }
  }
}
