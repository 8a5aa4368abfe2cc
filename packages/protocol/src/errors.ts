/**
 * The one error table of the contract. Every failure that crosses the daemon boundary is an
 * ArgusError with a stable `code`; the tRPC code each maps to lives here and nowhere else.
 */
export const ERROR_CODES = {
  invalid_input: 'BAD_REQUEST',
  ref_not_found: 'NOT_FOUND',
  ref_stale: 'CONFLICT',
  element_not_found: 'NOT_FOUND',
  element_not_interactable: 'PRECONDITION_FAILED',
  element_obscured: 'PRECONDITION_FAILED',
  element_ambiguous: 'CONFLICT',
  navigation_failed: 'BAD_GATEWAY',
  navigated: 'CONFLICT', // the page went to another document during the call (its own script, a redirect): what the call did there is lost; run it again
  timeout: 'TIMEOUT',
  navigation_timeout: 'TIMEOUT',
  page_unresponsive: 'SERVICE_UNAVAILABLE',
  cancelled: 'CLIENT_CLOSED_REQUEST',
  target_closed: 'NOT_FOUND',
  tab_not_found: 'NOT_FOUND',
  no_active_tab: 'PRECONDITION_FAILED',
  eval_failed: 'UNPROCESSABLE_CONTENT',
  browser_not_found: 'SERVICE_UNAVAILABLE',
  browser_crashed: 'SERVICE_UNAVAILABLE',
  // Remote browser pool (`argus connect --pool`).
  browser_lost: 'SERVICE_UNAVAILABLE', // the pool endpoint holding this session went away: the next command recreates it on another one
  pool_exhausted: 'SERVICE_UNAVAILABLE', // no healthy endpoint has a free slot: add endpoints, raise pool.maxSessionsPerEndpoint or close sessions
  no_display: 'PRECONDITION_FAILED', // a headed browser on Linux without DISPLAY/WAYLAND_DISPLAY: run under xvfb-run, or headless
  unauthorized: 'UNAUTHORIZED',
  forbidden_scope: 'FORBIDDEN',
  path_forbidden: 'FORBIDDEN',
  policy_denied: 'FORBIDDEN',
  approval_denied: 'FORBIDDEN',
  approval_timeout: 'TIMEOUT',
  remote_forbidden: 'FORBIDDEN',
  url_forbidden: 'FORBIDDEN',
  file_exists: 'CONFLICT',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  screenshot_too_large: 'PAYLOAD_TOO_LARGE', // past an agent's image budget: capture the viewport, an element (ref) or a clip
  tab_hidden: 'PRECONDITION_FAILED', // a background tab of its window (or a hidden window) draws no frames to capture: bring it forward with `argus tab <id>` (`details.tab`), or show its window
  frame_chosen: 'PRECONDITION_FAILED', // a capture of the whole top document (screenshot --full, pdf, responsive --full) while a frame is chosen with `argus frame` (`details.chosenWith`): `argus frame main` first
  unsupported: 'NOT_IMPLEMENTED',
  daemon_unreachable: 'SERVICE_UNAVAILABLE',
  daemon_lost: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_SERVER_ERROR',
  // Web providers (fetch, crawl, search, research): what went wrong on the far side of an HTTP call.
  network: 'BAD_GATEWAY', // connection refused/reset, DNS failure: check the URL, retry later
  rate_limited: 'TOO_MANY_REQUESTS', // 429: wait `details.retryAfterMs`, lower the concurrency
  auth: 'FORBIDDEN', // 401/403 or a missing API key: set the key named in the message
  upstream: 'BAD_GATEWAY', // 5xx or an unusable answer: retry later or try `--browser`
  not_found: 'NOT_FOUND', // 404/410: the URL is gone; search for a current one
  policy_blocked: 'FORBIDDEN', // SSRF guard, robots.txt, scheme or content type: not to be retried
  circuit_open: 'SERVICE_UNAVAILABLE', // this host/engine failed repeatedly: wait `details.retryAfterMs`
  too_large: 'PAYLOAD_TOO_LARGE', // body past the size cap: raise the cap or fetch something smaller
  // Design canvas (documents, patches, history).
  canvas_not_found: 'NOT_FOUND', // no such document: `argus canvas list` names the ones there are
  invalid_patch: 'UNPROCESSABLE_CONTENT', // `details.opIndex` names the refused operation; nothing was applied
  revision_conflict: 'CONFLICT', // `details.revision` is the latest: read the document again and rebase
  history_empty: 'PRECONDITION_FAILED', // nothing to undo/redo (`details.direction`)
  // Journal and persistent profiles.
  journal_unavailable: 'SERVICE_UNAVAILABLE', // the journal cannot open or read (the message says why); commands still run
  profile_not_found: 'NOT_FOUND', // no such profile: `argus profiles` lists them
  profile_in_use: 'CONFLICT', // the daemon's browser is using it: `argus stop` first
  browser_profile_not_found: 'NOT_FOUND', // no cookie database of the user's own browser there: pass --browser, --profile or --user-data-dir
  // Tab leases (many clients).
  tab_leased: 'CONFLICT', // another client holds the tab (`details.holder`, `details.expiresInMs`): wait with --lease-wait, or read only
  canvas_leased: 'CONFLICT', // another client holds the design document's edit lease: wait with --lease-wait, or read only
  lease_not_found: 'NOT_FOUND', // no live lease has that id: it expired or was released; take a new one with `argus tab lease`
  // browser skills (issue 19)
  skill_not_found: 'NOT_FOUND', // no such skill in any tier: `argus skill list` names them
  skill_invalid: 'UNPROCESSABLE_CONTENT', // the file is malformed or uses a command outside its scope (`details.step`)
  skill_params_missing: 'BAD_REQUEST', // required parameters left out (`details.missing`)
  skill_step_failed: 'PRECONDITION_FAILED', // a step did not replay: `details.step/command/target/snapshot` to repair the file
  not_recording: 'PRECONDITION_FAILED', // skill save/cancel without `argus skill record NAME` first
  already_recording: 'CONFLICT', // skill record while a recording runs in the session (`details.recording`, `details.steps`): `argus skill save` or `argus skill cancel` first
  // annotations and the agent inbox (issue 20)
  inbox_item_not_found: 'NOT_FOUND', // no inbox item has that id (or it expired): `argus inbox` lists them
  tab_paused: 'PRECONDITION_FAILED', // the person paused the agent on this tab (extension side panel): wait for them to resume
  // human handoff (issue 20)
  handoff_running: 'CONFLICT', // a handoff for another tab while one runs (`details.tab`, `details.reason`): wait for it or `argus resume`, then again
  no_handoff: 'PRECONDITION_FAILED', // `argus resume` with no handoff running: `argus status` lists them
} as const;

/**
 * Whether trying the same call again later can succeed, by code. A provider error carries its own
 * answer in `details.retryable` (a 503 is retryable, a 501 is not); this is the default. A code
 * whose fix is another call first (`ref_stale`: a new snapshot; `tab_hidden`: `argus tab <id>`) is
 * not retryable: the same call alone fails the same way.
 */
const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'timeout',
  'navigation_timeout',
  'navigated',
  'network',
  'rate_limited',
  'upstream',
  'circuit_open',
  'daemon_unreachable',
  'tab_paused',
]);

/** `details.retryable` when the error says, else the code's default. */
export function isRetryable(error: ArgusError): boolean {
  const own = error.details?.['retryable'];
  return typeof own === 'boolean' ? own : RETRYABLE_CODES.has(error.code);
}

export type ErrorCode = keyof typeof ERROR_CODES;
export type TrpcCode = (typeof ERROR_CODES)[ErrorCode];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

export function trpcCodeFor(code: ErrorCode): TrpcCode {
  return ERROR_CODES[code];
}

/** The serialisable form carried in tRPC error shapes (`error.data.argus`). */
export interface ArgusErrorData {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export class ArgusError extends Error {
  override readonly name = 'ArgusError';
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }

  toData(): ArgusErrorData {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromData(data: ArgusErrorData): ArgusError {
    return new ArgusError(data.code, data.message, data.details === undefined ? {} : { details: data.details });
  }
}

export function isArgusError(error: unknown): error is ArgusError {
  return error instanceof ArgusError;
}
