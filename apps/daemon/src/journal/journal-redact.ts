/**
 * What the journal stores of a command's input: the input with every secret replaced by `[redacted]`.
 * The rule is "never stored", so anything that may carry one is cut whenever there is doubt: typed
 * text, a fill of a field not proven to be an ordinary one, cookie/storage/header values, `cdp send`
 * parameters, prompt answers, pairing codes, credential-looking strings anywhere. The values removed
 * are returned too, so the same strings can be cut from error messages.
 */
import { REDACTED, SECRET_PARAM, SECRET_VALUE, fillIsPlain, redactText } from '@argus/security';

/** Longest string kept from an input (page HTML, scripts): the journal is a record, not an archive. */
const MAX_STRING = 500;
/** Field names whose values are secrets in any command. */
const SECRET_KEY =
  /^(password|passwd|pass|secret|token|apiKey|api_key|cookie|cookies|headers|state|credentials|auth|authorization|code|params|lease)$/i;

/** Fields kept as given in every command: they locate, never carry, data. */
const SAFE_KEYS = new Set(['target', 'tab', 'id', 'url', 'timeoutMs', 'diff', 'key', 'name', 'command']);

export interface Redacted {
  /** The input as JSON, secrets replaced. */
  json: string;
  /** The secret strings taken out (to cut from error messages); never stored. */
  secrets: string[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The last URLs redacted: every journal row redacts its tab's URL before and after the call, the same
 * one call after call; parsing it and its query each time showed in a fresh MCP server's CPU profile
 * (issue 16). A pure function of the string, so a hit is the same answer.
 */
const recentUrls = new Map<string, string>();
const RECENT_URLS = 8;

/** A URL with its userinfo password and secret-named query values replaced. */
export function redactUrl(url: string): string {
  const known = recentUrls.get(url);
  if (known !== undefined) return known;
  const redacted = redactUrlNow(url);
  if (recentUrls.size >= RECENT_URLS) recentUrls.clear();
  recentUrls.set(url, redacted);
  return redacted;
}

function redactUrlNow(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return clipString(scrub(url));
  }
  if (parsed.password) parsed.password = 'redacted';
  for (const name of [...parsed.searchParams.keys()])
    if (SECRET_PARAM.test(name) || SECRET_VALUE.test(parsed.searchParams.get(name) ?? ''))
      parsed.searchParams.set(name, REDACTED);
  // fragments carry OAuth implicit-flow tokens (#access_token=...)
  if (parsed.hash.length > 1 && /=/.test(parsed.hash)) parsed.hash = `#${REDACTED}`;
  return clipString(parsed.toString());
}

/**
 * The secret parts of a URL (its password, secret query values), as typed and as percent-encoded:
 * what `redactUrl` cuts from the input must be cut from the error message too, which quotes the URL.
 */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found: string[] = [];
  if (parsed.password) found.push(parsed.password, decodeOr(parsed.password));
  for (const [name, value] of parsed.searchParams)
    if (SECRET_PARAM.test(name) || SECRET_VALUE.test(value)) found.push(value, encodeURIComponent(value));
  return [...new Set(found.filter((secret) => secret.length > 0))];
}

function decodeOr(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Credentials inside longer text (a script, a message): JWTs and long mixed letter-digit keys. */
const EMBEDDED_SECRET =
  /eyJ[\w-]+\.[\w-]+\.[\w-]+|\b(?=[A-Za-z0-9_\-+/]*\d)(?=[A-Za-z0-9_\-+/]*[A-Za-z])[A-Za-z0-9_\-+/]{40,}={0,2}/g;

/** Free text with bearer values, JWTs and long opaque keys cut. */
function scrub(text: string): string {
  return redactText(text).replace(EMBEDDED_SECRET, REDACTED);
}

function clipString(text: string): string {
  return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}…(${text.length} chars)` : text;
}

/**
 * Whether `text` is or contains one of `secrets`. Shorter than 3 characters, only the whole string
 * counts: a one-letter value would otherwise match nearly everything.
 */
export function holdsSecret(text: string, secrets: readonly string[]): boolean {
  return secrets.some(
    (secret) => secret.length > 0 && (text === secret || (secret.length >= 3 && text.includes(secret))),
  );
}

/**
 * `text` with each of `secrets` in it replaced by `[redacted]`, by holdsSecret's rule: a secret
 * shorter than 3 characters only when it is the whole text.
 */
export function cutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets)
    if (out === secret) out = REDACTED;
    else if (secret.length >= 3) out = out.split(secret).join(REDACTED);
  return out;
}

class Redactor {
  readonly secrets: string[] = [];

  /** `known`: values the caller declared secret (a skill's secret parameters), cut wherever they appear. */
  constructor(private readonly known: readonly string[] = []) {}

  cut(value: unknown): string {
    this.collect(value);
    return REDACTED;
  }

  /** A URL with its secrets cut, and those secrets remembered for the message. */
  url(value: string): string {
    this.secrets.push(...urlSecrets(value));
    return redactUrl(value);
  }

  /** Remembers every string under `value` as a secret. */
  private collect(value: unknown): void {
    if (typeof value === 'string') {
      if (value.length > 0) this.secrets.push(value);
    } else if (Array.isArray(value)) for (const item of value) this.collect(item);
    else if (value && typeof value === 'object') for (const item of Object.values(value)) this.collect(item);
  }

  /** Generic pass: secret-named fields, header maps, credential-looking strings, long strings. */
  walk(value: unknown, key = '', done: ReadonlySet<string> = new Set()): Json {
    if (value === null || value === undefined) return null;
    if (typeof value === 'number' || typeof value === 'boolean') return value;
    if (typeof value === 'string') {
      // a value the caller declared secret, even in a field proven plain (an ordinary fill)
      if (holdsSecret(value, this.known)) return this.cut(value);
      if (key === 'url' || key === 'urls') return this.url(value);
      if (SECRET_VALUE.test(value.trim())) return this.cut(value);
      return clipString(scrub(value));
    }
    if (Array.isArray(value)) return value.map((item) => this.walk(item, key));
    if (typeof value !== 'object') return null;
    const out: { [key: string]: Json } = {};
    for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
      if (item === undefined) continue;
      // fields a command's own rule already redacted (a cookie's name kept, its value cut)
      if (done.has(name)) out[name] = item as Json;
      else if (!SAFE_KEYS.has(name) && SECRET_KEY.test(name) && item !== null && typeof item !== 'boolean')
        out[name] = this.cut(item);
      else out[name] = this.walk(item, name);
    }
    return out;
  }
}

/** `Name: value` (a header) or `name=value` (a cookie): the name kept, the value cut. */
function keepName(redactor: Redactor, text: unknown, separator: RegExp): Json {
  if (typeof text !== 'string') return redactor.cut(text);
  const match = separator.exec(text);
  if (!match) return redactor.cut(text);
  const name = text.slice(0, match.index);
  redactor.cut(text.slice(match.index + match[0].length));
  return `${clipString(name)}${match[0]}${REDACTED}`;
}

/** Per-command rules first, then the generic pass over what is left. */
function redactCommand(redactor: Redactor, path: string, input: Record<string, unknown>, output: unknown): Json {
  const copy: Record<string, unknown> = { ...input };
  const done = new Set<string>();
  const set = (field: string, value: Json) => {
    copy[field] = value;
    done.add(field);
  };
  const cutField = (field: string) => {
    if (copy[field] !== undefined) set(field, redactor.cut(copy[field]));
  };
  switch (path) {
    case 'input.fill':
      if (!fillIsPlain(input, output)) cutField('text');
      break;
    case 'input.type':
    case 'capture.dialogAccept':
    case 'session.pair':
      cutField('text');
      cutField('code');
      break;
    case 'state.cookieSet':
      if (copy['cookie'] !== undefined) set('cookie', keepName(redactor, copy['cookie'], /=/));
      break;
    case 'emulation.header':
      if (copy['header'] !== undefined) set('header', keepName(redactor, copy['header'], /:\s*/));
      break;
    // storage values and configuration values (provider API keys) are cut whatever their key
    case 'inspect.storageSet':
    case 'config.set':
      cutField('value');
      break;
    case 'session.connect':
      if (typeof copy['cdp'] === 'string') set('cdp', redactor.url(copy['cdp']));
      // a grid's endpoints carry their access token in the query string (browserless ?token=)
      if (Array.isArray(copy['pool']))
        set(
          'pool',
          copy['pool'].map((url) => redactor.url(String(url))),
        );
      break;
    case 'batch.chain':
    case 'batch.run':
      for (const field of ['steps', 'commands'])
        if (Array.isArray(copy[field]))
          set(
            field,
            (copy[field] as unknown[]).map((step) => redactStep(redactor, step)),
          );
      break;
    case 'batch.tabEach':
      if (typeof copy['command'] === 'string' && copy['input'] && typeof copy['input'] === 'object')
        set('input', redactCommand(redactor, copy['command'], copy['input'] as Record<string, unknown>, undefined));
      break;
  }
  return redactor.walk(copy, '', done);
}

/** A batch step (`{ command, input }`): redacted by its own command's rules, never proven plain. */
function redactStep(redactor: Redactor, step: unknown): Json {
  if (!step || typeof step !== 'object') return redactor.walk(step);
  const { command, input, ...rest } = step as Record<string, unknown>;
  if (typeof command !== 'string' || !input || typeof input !== 'object') return redactor.walk(step);
  return { ...rest, command, input: redactCommand(redactor, command, input as Record<string, unknown>, undefined) };
}

/**
 * The last redaction, for the observers that settle the same call one after another (the journal
 * and the watch feed each record the input): kept only until the current microtask checkpoint.
 */
let lastRedaction:
  | { path: string; input: unknown; output: unknown; known: readonly string[] | undefined; redacted: Redacted }
  | undefined;

/**
 * The journal's copy of a command's input. `output` (when the call succeeded) can prove a fill
 * harmless; `known` (the call context's `secrets`) are cut whatever field carries them, proven plain or not.
 */
export function redactInput(path: string, input: unknown, output?: unknown, known?: readonly string[]): Redacted {
  const last = lastRedaction;
  if (last && last.path === path && last.input === input && last.output === output && last.known === known)
    return last.redacted;
  const redacted = redactFresh(path, input, output, known);
  if (!lastRedaction) queueMicrotask(() => (lastRedaction = undefined));
  lastRedaction = { path, input, output, known, redacted };
  return redacted;
}

function redactFresh(path: string, input: unknown, output: unknown, known: readonly string[] | undefined): Redacted {
  const redactor = new Redactor(known);
  const json =
    input && typeof input === 'object'
      ? JSON.stringify(redactCommand(redactor, path, input as Record<string, unknown>, output))
      : JSON.stringify(redactor.walk(input));
  return { json: json ?? 'null', secrets: [...redactor.secrets, ...(known ?? [])] };
}

/** An error message with the input's secrets (and bearer tokens) cut. */
export function redactMessage(message: string, secrets: readonly string[]): string {
  // short secrets too: a 4-digit PIN echoed in a message is still the PIN
  return clipString(scrub(cutSecrets(message, secrets)));
}
