/** Envelope encryption of secrets at rest (a KMS data key in AWS, a local key under DATA_DIR locally). */
export interface Cipher {
  encrypt(plaintext: string): Promise<string>;
  decrypt(ciphertext: string): Promise<string>;
}
