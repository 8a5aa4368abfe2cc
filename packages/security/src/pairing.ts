import { createHash, randomInt } from 'node:crypto';

// no 0/O/1/I: codes are read aloud or typed by an operator
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A fresh pairing code such as `K7F-Q2M` (6 symbols from a 32-letter alphabet, ~30 bits). */
export function newPairingCode(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${code.slice(0, 3)}-${code.slice(3)}`;
}

/** `k7fq2m`, `K7F Q2M` and `K7F-Q2M` are the same code. */
export function normalizePairingCode(code: string): string {
  const bare = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return bare.length === 6 ? `${bare.slice(0, 3)}-${bare.slice(3)}` : code.trim().toUpperCase();
}

/**
 * A short fingerprint of who asks to pair (origin + node id), shown beside the code so an operator
 * compares a fixed-format value rather than a node id the caller chose to look trustworthy.
 */
export function pairingFingerprint(origin: string | undefined, nodeId: string): string {
  const hex = createHash('sha256')
    .update(`${origin ?? 'no-origin'}\n${nodeId}`, 'utf8')
    .digest('hex');
  return `${hex.slice(0, 4)}:${hex.slice(4, 8)}:${hex.slice(8, 12)}`.toUpperCase();
}
