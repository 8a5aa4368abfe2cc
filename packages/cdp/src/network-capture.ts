import type { Protocol } from 'devtools-protocol';
import { RingBuffer } from './ring-buffer.js';
import { StringPool } from './string-pool.js';
import type { Session } from './session.js';
import { ProtocolError, TransportClosedError } from './transport.js';

export interface NetworkRecord {
  requestId: string;
  /** The flat session that saw the request (the tab, or one of its out-of-process iframes). */
  session: Session;
  method: string;
  url: string;
  /** Chrome's resource type: Document, Script, XHR, Fetch, Image, ... */
  resourceType: string;
  status: number | null;
  statusText: string;
  mimeType: string;
  /** Wall-clock start, ms since the epoch. */
  startedAt: number;
  durationMs: number | null;
  /** Bytes on the wire (headers + compressed body), once finished. */
  encodedBytes: number | null;
  /** Body bytes after decoding, summed from dataReceived. */
  decodedBytes: number;
  state: 'pending' | 'finished' | 'failed';
  errorText: string | undefined;
  fromCache: boolean;
  /** Kept raw in memory; redact before showing (see @argus/security redactHeaders). */
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  /** Monotonic CDP timestamp (s) of the start, for the duration. */
  monotonicStart: number;
}

export interface NetworkCaptureOptions {
  /** Entries kept (default 5,000). */
  capacity?: number;
}

/** Bodies above this are never fetched through CDP (it would carry the whole body in one message). */
export const BODY_FETCH_LIMIT = 20_000_000;

export interface BodyResult {
  body: string | null;
  base64: boolean;
  /** Size of the full body in bytes, when known. */
  bytes: number | null;
  truncated: boolean;
  note: string | null;
}

/**
 * Shared by every tab's capture: the same browser sends the same request headers from each, and a
 * page loaded again asks for the same URLs.
 */
const recordStrings = new StringPool();

function headerMap(headers: Protocol.Network.Headers | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name] = recordStrings.intern(String(value));
  return out;
}

/** Extra-info headers are the raw ones (with Cookie / Set-Cookie); they win, case-insensitively. */
function mergeHeaders(base: Record<string, string>, extra: Record<string, string>): Record<string, string> {
  const out = { ...extra };
  const seen = new Set(Object.keys(extra).map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(base)) if (!seen.has(name.toLowerCase())) out[name] = value;
  return out;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === lower) return value;
  return undefined;
}

const MAX_STASHED = 500;

/**
 * Per-tab capture of network requests into a bounded ring buffer. A record is pushed when the
 * request starts (its sequence number is its id) and completed in place as events arrive. Headers
 * are kept raw; bodies are fetched only on demand with {@link responseBody}.
 */
export class NetworkCapture {
  readonly requests: RingBuffer<NetworkRecord>;
  /** Records still receiving events, by `<sessionId>:<requestId>`; bounded like the buffer. */
  private readonly open = new Map<string, NetworkRecord>();
  /** Extra-info headers that arrived before their request. */
  private readonly stashed = new Map<string, { request?: Record<string, string>; response?: Record<string, string> }>();
  private readonly listeners = new Set<(record: NetworkRecord, seq: number) => void>();
  private readonly seqOf = new WeakMap<NetworkRecord, number>();

  constructor(options: NetworkCaptureOptions = {}) {
    this.requests = new RingBuffer(options.capacity ?? 5_000);
  }

  /** Called once per request when it finishes or fails. */
  onSettled(listener: (record: NetworkRecord, seq: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.requests.clear();
    this.open.clear();
    this.stashed.clear();
  }

  private settle(key: string, record: NetworkRecord, timestamp: number | undefined): void {
    if (timestamp !== undefined)
      record.durationMs = Math.max(0, Math.round((timestamp - record.monotonicStart) * 1000 * 10) / 10);
    if (this.open.get(key) === record) this.open.delete(key);
    const seq = this.seqOf.get(record);
    if (seq === undefined) return;
    for (const listener of [...this.listeners]) listener(record, seq);
  }

  private stash(key: string, kind: 'request' | 'response', headers: Record<string, string>): void {
    const entry = this.stashed.get(key) ?? {};
    entry[kind] = headers;
    this.stashed.set(key, entry);
    if (this.stashed.size > MAX_STASHED) this.stashed.delete(this.stashed.keys().next().value as string);
  }

  private applyResponse(record: NetworkRecord, response: Protocol.Network.Response): void {
    record.status = response.status;
    record.statusText = response.statusText;
    record.mimeType = recordStrings.intern(response.mimeType);
    record.responseHeaders = mergeHeaders(headerMap(response.headers), record.responseHeaders);
    if (response.fromDiskCache || response.fromServiceWorker || response.fromPrefetchCache) record.fromCache = true;
  }

  attach(session: Session): () => void {
    const keyOf = (requestId: string) => `${session.id ?? 'root'}:${requestId}`;
    const offs = [
      session.on('Network.requestWillBeSent', (event) => {
        const key = keyOf(event.requestId);
        const previous = this.open.get(key);
        if (previous && event.redirectResponse) {
          // a redirect reuses the request id: the hop ends here, the next URL gets its own record
          this.applyResponse(previous, event.redirectResponse);
          previous.state = 'finished';
          previous.encodedBytes = event.redirectResponse.encodedDataLength;
          this.settle(key, previous, event.timestamp);
        }
        const stashed = this.stashed.get(key);
        this.stashed.delete(key);
        const record: NetworkRecord = {
          requestId: event.requestId,
          session,
          method: event.request.method,
          url: recordStrings.intern(event.request.url + (event.request.urlFragment ?? '')),
          resourceType: event.type ?? 'Other',
          status: null,
          statusText: '',
          mimeType: '',
          startedAt: Math.round(event.wallTime * 1000),
          durationMs: null,
          encodedBytes: null,
          decodedBytes: 0,
          state: 'pending',
          errorText: undefined,
          fromCache: false,
          requestHeaders: mergeHeaders(headerMap(event.request.headers), stashed?.request ?? {}),
          responseHeaders: stashed?.response ?? {},
          monotonicStart: event.timestamp,
        };
        this.seqOf.set(record, this.requests.push(record));
        this.open.set(key, record);
        if (this.open.size > this.requests.capacity) this.open.delete(this.open.keys().next().value as string);
      }),
      session.on('Network.requestWillBeSentExtraInfo', (event) => {
        const key = keyOf(event.requestId);
        const record = this.open.get(key);
        if (record) record.requestHeaders = mergeHeaders(record.requestHeaders, headerMap(event.headers));
        else this.stash(key, 'request', headerMap(event.headers));
      }),
      session.on('Network.responseReceivedExtraInfo', (event) => {
        const key = keyOf(event.requestId);
        const record = this.open.get(key);
        if (record) record.responseHeaders = mergeHeaders(record.responseHeaders, headerMap(event.headers));
        else this.stash(key, 'response', headerMap(event.headers));
      }),
      session.on('Network.responseReceived', (event) => {
        const record = this.open.get(keyOf(event.requestId));
        if (!record) return;
        this.applyResponse(record, event.response);
        record.resourceType = event.type;
      }),
      session.on('Network.dataReceived', (event) => {
        const record = this.open.get(keyOf(event.requestId));
        if (record) record.decodedBytes += event.dataLength;
      }),
      session.on('Network.requestServedFromCache', (event) => {
        const record = this.open.get(keyOf(event.requestId));
        if (record) record.fromCache = true;
      }),
      session.on('Network.loadingFinished', (event) => {
        const key = keyOf(event.requestId);
        const record = this.open.get(key);
        if (!record) return;
        record.state = 'finished';
        record.encodedBytes = event.encodedDataLength;
        this.settle(key, record, event.timestamp);
      }),
      session.on('Network.loadingFailed', (event) => {
        const key = keyOf(event.requestId);
        const record = this.open.get(key);
        if (!record) return;
        record.state = 'failed';
        record.errorText = event.canceled
          ? `${event.errorText} (canceled)`
          : event.blockedReason
            ? `${event.errorText} (blocked: ${event.blockedReason})`
            : event.errorText;
        record.resourceType = event.type;
        this.settle(key, record, event.timestamp);
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }
}

/** Whether a record counts as failed: the request failed, or the server answered 4xx/5xx. */
export function isFailedRequest(record: NetworkRecord): boolean {
  return record.state === 'failed' || (record.status !== null && record.status >= 400);
}

/**
 * Fetches a response body on demand. The size is checked first (decoded bytes seen, Content-Length,
 * bytes on the wire): a body above {@link BODY_FETCH_LIMIT} is never fetched; one above `maxBytes`
 * is cut to `maxBytes`. Either way the note says so.
 */
export async function responseBody(record: NetworkRecord, maxBytes: number): Promise<BodyResult> {
  const none = (note: string, bytes: number | null = null): BodyResult => ({
    body: null,
    base64: false,
    bytes,
    truncated: false,
    note,
  });
  if (record.state === 'failed')
    return none(`The request failed (${record.errorText ?? 'unknown error'}); there is no body.`);
  if (
    record.status !== null &&
    record.status >= 300 &&
    record.status < 400 &&
    headerValue(record.responseHeaders, 'location')
  ) {
    return none('This response is a redirect; Chrome keeps no body for it. Look at the next request.');
  }
  const contentLength = Number(headerValue(record.responseHeaders, 'content-length') ?? Number.NaN);
  const known = Math.max(
    record.decodedBytes,
    Number.isFinite(contentLength) ? contentLength : 0,
    record.encodedBytes ?? 0,
  );
  if (known > BODY_FETCH_LIMIT) {
    return none(
      `The body is about ${known.toLocaleString('en-US')} bytes, above the ${BODY_FETCH_LIMIT.toLocaleString('en-US')}-byte limit for fetching through the browser: not fetched. Download the URL to a file instead.`,
      known,
    );
  }
  if (record.state === 'pending')
    return none('The response is still loading; run the command again once it has finished.');
  let result: Protocol.Network.GetResponseBodyResponse;
  try {
    result = await record.session.send('Network.getResponseBody', { requestId: record.requestId });
  } catch (error) {
    if (error instanceof ProtocolError || error instanceof TransportClosedError) {
      return none(
        `Chrome no longer holds this body (${error.message}). It keeps bodies of recent responses of the current document only; reload and ask again.`,
      );
    }
    throw error;
  }
  const bytes = result.base64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body, 'utf8');
  if (bytes.length <= maxBytes)
    return { body: result.body, base64: result.base64Encoded, bytes: bytes.length, truncated: false, note: null };
  const cut = bytes.subarray(0, maxBytes);
  return {
    body: result.base64Encoded ? cut.toString('base64') : cut.toString('utf8'),
    base64: result.base64Encoded,
    bytes: bytes.length,
    truncated: true,
    note: `Truncated: showing the first ${maxBytes.toLocaleString('en-US')} of ${bytes.length.toLocaleString('en-US')} bytes. Pass a larger --max-bytes (up to ${BODY_FETCH_LIMIT.toLocaleString('en-US')}) for more.`,
  };
}
