/**
 * What an encrypted value belongs to (the account and the item, e.g. `{account, brand, platform, field}`): bound into
 * the ciphertext (AES-GCM associated data; the KMS encryption context of the data key), so a value copied to another
 * account or item does not decrypt there. The same context must be given to decrypt.
 */
export type CipherContext = Readonly<Record<string, string>>;

/** Envelope encryption of secrets at rest (a KMS data key in AWS, a local key under DATA_DIR locally). */
export interface Cipher {
  encrypt(plaintext: string, context?: CipherContext): Promise<string>;
  /** Fails when the value was altered or encrypted under another context (values from before contexts need none). */
  decrypt(ciphertext: string, context?: CipherContext): Promise<string>;
}

/** The context as canonical bytes: keys sorted, JSON. */
export function contextBytes(context: CipherContext): Buffer {
  return Buffer.from(JSON.stringify(Object.keys(context).sort().map((k) => [k, context[k]])), 'utf8');
}
