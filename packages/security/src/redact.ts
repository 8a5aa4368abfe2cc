import { withoutPassword } from '@argus/protocol/url-display';

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
  'x-csrf-token',
  'x-xsrf-token',
]);
const SECRET_NAME = /(token|secret|passw(or)?d|api[-_]?key|session|auth)/i;
// long opaque strings that look like credentials: JWTs, bearer values, hex/base64 keys
export const SECRET_VALUE = /^(Bearer\s+\S+|eyJ[\w-]+\.[\w-]+\.[\w-]+|[A-Za-z0-9_\-+/=]{32,})$/;
/** Words in a locator or field name that mark a credential field. */
export const SECRET_TARGET = /(pass|pwd|secret|token|otp|pin\b|cvv|cvc|card|ssn|auth|credential|api.?key)/i;
/** What `input.fill` reports as the value of a password field (packages/snapshot masks it so). */
export const PASSWORD_MASK = '••••';

export const REDACTED = '[redacted]';

export function isSecretHeader(name: string, value: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || SECRET_NAME.test(lower) || SECRET_VALUE.test(value.trim());
}

/** Returns a copy of the headers with credentials replaced by `[redacted]`. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = isSecretHeader(name, String(value)) ? REDACTED : String(value);
  return out;
}

/**
 * Whether `input.fill`'s input and result prove the field an ordinary one, whose text may be shown
 * and kept: its value is reported (not masked as a password's), its target names no credential
 * field, and the text does not look like a credential. Anything else is treated as a secret (the
 * journal, skills and the CLI's replay line leave it out).
 */
export function fillIsPlain(input: Readonly<Record<string, unknown>>, output: unknown): boolean {
  const value = (output as { value?: unknown } | undefined)?.value;
  const text = input['text'];
  if (typeof value !== 'string' || value === PASSWORD_MASK || typeof text !== 'string') return false;
  return !SECRET_TARGET.test(String(input['target'] ?? '')) && !SECRET_VALUE.test(text.trim());
}

/** Query parameters whose values are secrets in a URL (`?token=`, `?api_key=`, a signed URL's `sig=`). */
export const SECRET_PARAM = /(token|secret|passw(or)?d|api[-_]?key|session|auth|code|sig|signature|key)/i;

/**
 * A URL as a provider prints it (output, error messages): the userinfo password as `***` (the rule
 * `goto` follows) and the values of secret-named or credential-looking query parameters as `***`.
 */
export function maskUrl(url: string): string {
  const shown = withoutPassword(url);
  if (!shown.includes('?')) return shown;
  try {
    const parsed = new URL(shown);
    let masked = false;
    for (const [name, value] of parsed.searchParams)
      if (SECRET_PARAM.test(name) || SECRET_VALUE.test(value)) {
        parsed.searchParams.set(name, '***');
        masked = true;
      }
    return masked ? parsed.toString().replaceAll('%2A%2A%2A', '***') : shown;
  } catch {
    return shown;
  }
}

/** `scheme://user:password@` inside free text. */
const TEXT_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:"'<>]*:)[^\s/?#@"'<>]+@/gi;
/** `?token=value` / `&api_key=value` inside free text. */
const TEXT_SECRET_PARAM =
  /([?&][^\s=&#"'<>]*(?:token|secret|passw(?:or)?d|api[-_]?key|session|auth|sig|signature|key)[^\s=&#"'<>]*=)[^\s&#"'<>]+/gi;

/** Masks token-like substrings in free text (log lines, error messages), URL credentials included. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join(REDACTED);
  return out
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, `$1${REDACTED}`)
    .replace(TEXT_USERINFO, '$1***@')
    .replace(TEXT_SECRET_PARAM, '$1***');
}
