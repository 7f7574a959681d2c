import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM with a 12-byte random IV and a 16-byte tag, shared by the KMS envelope cipher and the local cipher.
 * Parts are base64url strings so they can be joined with dots into a versioned token.
 */
export interface AesGcmParts {
  iv: string;
  tag: string;
  ciphertext: string;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

function checkKey(key: Uint8Array): void {
  if (key.length !== KEY_BYTES) throw new Error(`AES-256-GCM needs a ${KEY_BYTES}-byte key`);
}

/** `aad`: associated data bound to the ciphertext (not stored); decrypt needs the same bytes. */
export function aesGcmEncrypt(key: Uint8Array, plaintext: string, aad?: Uint8Array): AesGcmParts {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  if (aad) cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    iv: iv.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
  };
}

/** Throws when the key is wrong, any part was altered or the associated data differs (GCM authentication). */
export function aesGcmDecrypt(key: Uint8Array, parts: AesGcmParts, aad?: Uint8Array): string {
  checkKey(key);
  const iv = Buffer.from(parts.iv, 'base64url');
  const tag = Buffer.from(parts.tag, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('Malformed ciphertext');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  if (aad) decipher.setAAD(aad);
  try {
    return Buffer.concat([decipher.update(Buffer.from(parts.ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('Ciphertext failed authentication');
  }
}
