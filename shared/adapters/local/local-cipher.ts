import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { contextBytes, type Cipher, type CipherContext } from '../../ports/cipher';
import { aesGcmDecrypt, aesGcmEncrypt } from '../aes-gcm';

const VERSION = 'l1';
/** The same, with the context as AES-GCM associated data. */
const VERSION_BOUND = 'l2';
const KEY_BYTES = 32;

/**
 * The Cipher port for local mode: AES-256-GCM under one 32-byte key kept in `keyFile` (created on first use, mode
 * 0600), so secrets stay readable across restarts. Format `l1.<iv>.<tag>.<ciphertext>` (base64url); `l2.…` when
 * encrypted with a context, which is the GCM associated data (so it decrypts only under the same context).
 */
export class LocalKeyCipher implements Cipher {
  private key: Promise<Uint8Array> | undefined;

  constructor(private readonly keyFile: string) {}

  async encrypt(plaintext: string, context?: CipherContext): Promise<string> {
    const aad = context ? contextBytes(context) : undefined;
    const { iv, tag, ciphertext } = aesGcmEncrypt(await this.loadKey(), plaintext, aad);
    return [aad ? VERSION_BOUND : VERSION, iv, tag, ciphertext].join('.');
  }

  async decrypt(token: string, context?: CipherContext): Promise<string> {
    const parts = token.split('.');
    if (parts.length !== 4 || (parts[0] !== VERSION && parts[0] !== VERSION_BOUND)) throw new Error('Unsupported ciphertext format');
    const [version, iv, tag, ciphertext] = parts as [string, string, string, string];
    // a bound value needs its context; an unbound one (from before contexts) is read as it is
    const aad = version === VERSION_BOUND ? contextBytes(context ?? {}) : undefined;
    return aesGcmDecrypt(await this.loadKey(), { iv, tag, ciphertext }, aad);
  }

  private loadKey(): Promise<Uint8Array> {
    this.key ??= readOrCreateKey(this.keyFile).catch((err: unknown) => {
      this.key = undefined; // let a later call try again
      throw err;
    });
    return this.key;
  }
}

async function readOrCreateKey(keyFile: string): Promise<Uint8Array> {
  try {
    return checked(await readFile(keyFile), keyFile);
  } catch (err) {
    if (!isCode(err, 'ENOENT')) throw err;
  }
  await mkdir(dirname(keyFile), { recursive: true });
  const key = randomBytes(KEY_BYTES);
  // Written whole to a private temp file, then hard-linked into place: link() fails if another process (or
  // instance) created the key first, and then theirs is used; nobody ever reads a half-written key.
  const tmp = `${keyFile}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, key, { mode: 0o600, flag: 'wx' });
  try {
    await link(tmp, keyFile);
    return key;
  } catch (err) {
    if (!isCode(err, 'EEXIST')) throw err;
    return checked(await readFile(keyFile), keyFile);
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

function checked(key: Buffer, keyFile: string): Uint8Array {
  if (key.length !== KEY_BYTES) throw new Error(`Key file ${keyFile} does not hold a ${KEY_BYTES}-byte key`);
  return key;
}

function isCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}
