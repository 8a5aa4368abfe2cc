import { createCipheriv, createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptCookie, deriveKey, linuxFallbackKeys } from './cookie-crypto.js';

/** Encrypts as Chrome does, so the decryption is checked against the scheme, not against itself. */
function chromeEncrypt(tag: string, password: string, iterations: number, plain: Buffer): Buffer {
  const cipher = createCipheriv('aes-128-cbc', deriveKey(password, iterations), Buffer.alloc(16, 0x20));
  return Buffer.concat([Buffer.from(tag), cipher.update(plain), cipher.final()]);
}

describe('decryptCookie', () => {
  const host = '.example.com';
  const hashed = (value: string) => Buffer.concat([createHash('sha256').update(host).digest(), Buffer.from(value)]);

  it('decrypts v10 with the basic-store key, and strips the host hash of database version 24+', () => {
    const old = chromeEncrypt('v10', 'peanuts', 1, Buffer.from('plain-Ω'));
    expect(decryptCookie(old, host, linuxFallbackKeys(), 23)).toEqual({ value: 'plain-Ω' });
    const current = chromeEncrypt('v10', 'peanuts', 1, hashed('plain-Ω'));
    expect(decryptCookie(current, host, linuxFallbackKeys(), 24)).toEqual({ value: 'plain-Ω' });
  });

  it('refuses a host hash for another host (a value copied between cookies)', () => {
    const current = chromeEncrypt('v10', 'peanuts', 1, hashed('x'));
    expect(decryptCookie(current, '.evil.test', linuxFallbackKeys(), 24)).toHaveProperty('skip');
  });

  it('decrypts v11 with the keyring key (and the macOS iteration count)', () => {
    const keyring = [{ version: 'v11' as const, key: deriveKey('k3yr1ng', 1), source: 'test' }];
    expect(decryptCookie(chromeEncrypt('v11', 'k3yr1ng', 1, Buffer.from('v')), host, keyring, 0)).toEqual({
      value: 'v',
    });
    const mac = [{ version: 'v10' as const, key: deriveKey('keychain', 1003), source: 'test' }];
    expect(decryptCookie(chromeEncrypt('v10', 'keychain', 1003, Buffer.from('m')), host, mac, 0)).toEqual({
      value: 'm',
    });
  });

  it('skips, with a reason, what it cannot read: a wrong key, no key, app-bound v20, garbage', () => {
    const v11 = chromeEncrypt('v11', 'some-keyring-password', 1, Buffer.from('secret'));
    expect(decryptCookie(v11, host, linuxFallbackKeys(), 0)).toEqual({
      skip: 'could not decrypt (v11): the key is not the one this browser used',
    });
    expect(decryptCookie(v11, host, [], 0)).toEqual({ skip: 'encrypted with the v11 key, which is not available' });
    expect(decryptCookie(Buffer.from('v20abcdefabcdefabcdef'), host, [], 0)).toHaveProperty('skip');
    expect(decryptCookie(Buffer.from('v10abc'), host, linuxFallbackKeys(), 0)).toHaveProperty('skip');
  });
});
