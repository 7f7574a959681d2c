import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { contextBytes, type Cipher, type CipherContext } from '../../ports/cipher';
import { aesGcmDecrypt, aesGcmEncrypt } from '../aes-gcm';
import { traceClient } from '../../tracing';

/** The KMS client (named imports, so a bundle keeps only the commands it sends). */
export const kmsClient = (region: string): KMSClient => traceClient(new KMSClient({ region }));

const VERSION = 'v1';
/** The same, with a context: the data key's KMS encryption context and the GCM associated data. */
const VERSION_BOUND = 'v2';
const CACHE_MAX = 100;

/**
 * The Cipher port as KMS envelope encryption: each encrypt asks KMS for a fresh AES-256 data key, encrypts locally
 * with AES-256-GCM, and stores the KMS-encrypted data key alongside:
 * `v1.<encrypted data key>.<iv>.<tag>.<ciphertext>` (all base64url). Decrypt asks KMS to decrypt the data key;
 * plaintext data keys are kept in a small in-memory LRU (at most 100) to spare KMS calls. Key material is never
 * logged or put in error messages. With a context (`v2.…`) the data key is generated under it as the KMS
 * EncryptionContext (KMS refuses to unwrap it under another; CloudTrail records it) and it is the GCM associated data.
 */
export class KmsEnvelopeCipher implements Cipher {
  private readonly keys = new Map<string, Uint8Array>();

  constructor(
    private readonly client: KMSClient,
    private readonly keyId: string,
  ) {}

  async encrypt(plaintext: string, context?: CipherContext): Promise<string> {
    const out = await this.client.send(new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', ...(context ? { EncryptionContext: { ...context } } : {}) }));
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS GenerateDataKey returned no key');
    const wrappedKey = Buffer.from(out.CiphertextBlob).toString('base64url');
    const dataKey = Uint8Array.from(out.Plaintext);
    const aad = context ? contextBytes(context) : undefined;
    this.remember(cacheKey(wrappedKey, aad), dataKey);
    const { iv, tag, ciphertext } = aesGcmEncrypt(dataKey, plaintext, aad);
    return [aad ? VERSION_BOUND : VERSION, wrappedKey, iv, tag, ciphertext].join('.');
  }

  async decrypt(token: string, context?: CipherContext): Promise<string> {
    const parts = token.split('.');
    if (parts.length !== 5 || (parts[0] !== VERSION && parts[0] !== VERSION_BOUND)) throw new Error('Unsupported ciphertext format');
    const [version, wrappedKey, iv, tag, ciphertext] = parts as [string, string, string, string, string];
    const bound = version === VERSION_BOUND ? (context ?? {}) : undefined;
    const aad = bound ? contextBytes(bound) : undefined;
    const dataKey = await this.dataKey(wrappedKey, bound, aad);
    return aesGcmDecrypt(dataKey, { iv, tag, ciphertext }, aad);
  }

  /** The plaintext data key; a cached one only for the same context, so a wrong context always reaches KMS. */
  private async dataKey(wrappedKey: string, context: CipherContext | undefined, aad: Buffer | undefined): Promise<Uint8Array> {
    const key = cacheKey(wrappedKey, aad);
    const cached = this.keys.get(key);
    if (cached) {
      this.remember(key, cached); // refresh its place in the LRU
      return cached;
    }
    const out = await this.client.send(new DecryptCommand({ CiphertextBlob: Buffer.from(wrappedKey, 'base64url'), ...(context ? { EncryptionContext: { ...context } } : {}) }));
    if (!out.Plaintext) throw new Error('KMS Decrypt returned no key');
    const dataKey = Uint8Array.from(out.Plaintext);
    this.remember(key, dataKey);
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

const cacheKey = (wrappedKey: string, aad: Buffer | undefined) => (aad ? `${wrappedKey}#${aad.toString('base64url')}` : wrappedKey);
