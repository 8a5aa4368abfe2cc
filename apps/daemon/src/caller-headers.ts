/** What a request says about its caller, from its headers: its current directory and its name. */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ArgusError, SessionName } from '@argus/protocol';
import { LEASE_IDS_EXPECTED, leaseIds } from '@argus/protocol/lease-ids';
import { TRPCError } from '@trpc/server';

function refuse(message: string): TRPCError {
  const cause = new ArgusError('invalid_input', message);
  return new TRPCError({ code: 'BAD_REQUEST', message, cause });
}

/** A header's (first) value, URI-decoded: undefined when absent or empty, null when not URI-encoded. */
function decodedHeader(raw: unknown): string | undefined | null {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** The HTTP header (and WebSocket connection param `cwd`) a client puts its current directory in, URI-encoded. */
export const CWD_HEADER = 'x-argus-cwd';

/**
 * The caller's current directory from its request: absolute, URI-decoded, an existing directory.
 * Absent means "the daemon's workspace". A bad one is `invalid_input`, never silently ignored, so a
 * path never resolves somewhere the caller did not mean.
 */
export function callerCwd(raw: unknown): string | undefined {
  const cwd = decodedHeader(raw);
  if (cwd === undefined) return undefined;
  if (cwd === null)
    throw refuse(`The ${CWD_HEADER} header is not URI-encoded. Clients send encodeURIComponent(process.cwd()).`);
  if (cwd.length > 4096 || cwd.includes('\0') || !isAbsolute(cwd)) {
    throw refuse(`The caller directory "${cwd.slice(0, 200)}" must be an absolute path (${CWD_HEADER} header).`);
  }
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
    throw refuse(
      `The caller directory ${cwd} does not exist or is not a directory. Run the command from an existing directory.`,
    );
  }
  return resolve(cwd);
}

/** The HTTP header (and WebSocket URL parameter `client`) a client names itself in: for logs and approvals. */
export const CLIENT_HEADER = 'x-argus-client';

/**
 * The name a caller gives itself (`cli`, `mcp-1234-ab12`), or undefined. Informational only: it
 * labels log lines and approvals (so an MCP server can ask its own user about its own calls) and
 * grants nothing. Anything but a short plain name is ignored rather than refused.
 */
export function callerName(raw: unknown): string | undefined {
  const name = decodedHeader(raw);
  return typeof name === 'string' && /^[\w.:-]{1,64}$/.test(name) ? name : undefined;
}

/** The HTTP header (and WebSocket URL parameter `session`) a client names its session in. */
export const SESSION_HEADER = 'x-argus-session';

/**
 * The named session a request runs in, or undefined for the default one. A malformed name is
 * `invalid_input`, never ignored: ignoring it would run the call in the default session, with its
 * cookies, which is exactly what the caller asked to keep apart.
 */
export function callerSession(raw: unknown): string | undefined {
  const name = decodedHeader(raw);
  if (name === undefined) return undefined;
  if (name === null) throw refuse(`The ${SESSION_HEADER} header is not URI-encoded.`);
  const parsed = SessionName.safeParse(name);
  if (!parsed.success) {
    throw refuse(
      `Bad session name "${name.slice(0, 80)}": use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (--session / ARGUS_SESSION).`,
    );
  }
  return name === 'default' ? undefined : name;
}

/** The HTTP header (and WebSocket URL parameter `lease`) a client presents its tab lease ids in, comma-separated. */
export const LEASE_HEADER = 'x-argus-lease';

/** The HTTP header (and WebSocket URL parameter `leaseWait`) saying how long a write may wait for a lease, in ms. */
export const LEASE_WAIT_HEADER = 'x-argus-lease-wait';

/** Longest wait for another client's lease a call may ask for. */
export const MAX_LEASE_WAIT_MS = 600_000;

/**
 * The lease ids a request presents. A malformed one is `invalid_input`, never ignored: the caller
 * believes it holds a lease, and its writes must not run as anybody's.
 */
export function callerLeases(raw: unknown): string[] | undefined {
  const value = decodedHeader(raw);
  if (value === undefined) return undefined;
  const ids = value === null ? null : leaseIds(value);
  if (ids === null) throw refuse(`The ${LEASE_HEADER} header must hold ${LEASE_IDS_EXPECTED} (ARGUS_LEASE / --lease).`);
  return ids.length ? ids : undefined;
}

/** How long a write may wait for another client's lease (ms); a bad value is `invalid_input`. */
export function callerLeaseWait(raw: unknown): number | undefined {
  const value = decodedHeader(raw);
  if (value === undefined) return undefined;
  const ms = value === null || !/^\d{1,7}$/.test(value) ? Number.NaN : Number(value);
  if (!(ms >= 0 && ms <= MAX_LEASE_WAIT_MS))
    throw refuse(
      `The ${LEASE_WAIT_HEADER} header takes milliseconds between 0 and ${MAX_LEASE_WAIT_MS} (--lease-wait 30s / ARGUS_LEASE_WAIT).`,
    );
  return ms;
}
