/**
 * Chrome's cookie encryption on Linux and macOS ("OSCrypt"): AES-128-CBC with a key derived by
 * PBKDF2-SHA1 from a password, salt "saltysalt", IV of 16 spaces. The value starts with a version tag:
 * `v10` (Linux: the fixed password "peanuts", used with `--password-store=basic` or no keyring;
 * macOS: the Keychain's "Chrome Safe Storage" password) or `v11` (Linux: the password the desktop
 * keyring holds). Since cookie database version 24, the plaintext starts with SHA-256 of the cookie's
 * host, which is checked and removed. Windows' DPAPI and app-bound (`v20`) values are not readable
 * from here and are reported, never guessed.
 */
import { createDecipheriv, createHash, pbkdf2Sync } from 'node:crypto';

const SALT = 'saltysalt';
const IV = Buffer.alloc(16, 0x20);

/** A derived AES key, with what it came from (for messages). */
export interface CookieKey {
  version: 'v10' | 'v11';
  key: Buffer;
  source: string;
}

export function deriveKey(password: string, iterations: number): Buffer {
  return pbkdf2Sync(password, SALT, iterations, 16, 'sha1');
}

/** Linux's v10 key ("peanuts"), and the empty-password key some Chromium builds use when the keyring fails. */
export function linuxFallbackKeys(): CookieKey[] {
  return [
    { version: 'v10', key: deriveKey('peanuts', 1), source: 'the built-in password (basic store)' },
    { version: 'v10', key: deriveKey('', 1), source: 'an empty password' },
    { version: 'v11', key: deriveKey('', 1), source: 'an empty password' },
  ];
}

export type DecryptResult = { value: string } | { skip: string };

/**
 * Decrypts one `encrypted_value`. `keys` are tried in order for the value's version; a key that
 * yields bad padding or a wrong host hash is the wrong key, not a value to import.
 */
export function decryptCookie(
  encrypted: Buffer,
  host: string,
  keys: readonly CookieKey[],
  dbVersion: number,
): DecryptResult {
  const tag = encrypted.subarray(0, 3).toString('latin1');
  if (tag !== 'v10' && tag !== 'v11') {
    return {
      skip: tag === 'v20' ? 'app-bound encryption (v20, Windows): not readable' : `unknown encryption "${tag}"`,
    };
  }
  const candidates = keys.filter((key) => key.version === tag);
  if (candidates.length === 0) return { skip: `encrypted with the ${tag} key, which is not available` };
  const body = encrypted.subarray(3);
  for (const candidate of candidates) {
    const plain = tryDecrypt(body, candidate.key);
    if (!plain) continue;
    const value = dbVersion >= 24 ? stripHostHash(plain, host) : plain;
    if (value === undefined) continue;
    const text = value.toString('utf8');
    if (Buffer.from(text, 'utf8').equals(value)) return { value: text };
  }
  return { skip: `could not decrypt (${tag}): the key is not the one this browser used` };
}

function tryDecrypt(body: Buffer, key: Buffer): Buffer | undefined {
  if (body.length === 0 || body.length % 16 !== 0) return undefined;
  try {
    const decipher = createDecipheriv('aes-128-cbc', key, IV);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    return undefined; // bad padding: the wrong key
  }
}

function stripHostHash(plain: Buffer, host: string): Buffer | undefined {
  if (plain.length < 32) return undefined;
  const hash = createHash('sha256').update(host).digest();
  return plain.subarray(0, 32).equals(hash) ? plain.subarray(32) : undefined;
}
