import { describe, expect, it } from 'vitest';
import { BODY_FETCH_LIMIT, NetworkCapture, isFailedRequest, responseBody } from './network-capture.js';
import { Session } from './session.js';
import { type CdpEvent, ProtocolError, type Transport } from './transport.js';

class FakeTransport implements Transport {
  closed = false;
  bodies = new Map<string, { body: string; base64Encoded: boolean }>();
  fetched: string[] = [];
  async send(method: string, params: object | undefined) {
    if (method !== 'Network.getResponseBody') return {};
    const { requestId } = params as { requestId: string };
    this.fetched.push(requestId);
    const body = this.bodies.get(requestId);
    if (!body) throw new ProtocolError(method, -32000, 'No resource with given identifier found');
    return body;
  }
  onEvent() {
    return () => {};
  }
  onClose() {
    return () => {};
  }
  async close() {}
}

function setUp() {
  const transport = new FakeTransport();
  const session = new Session(transport, 'S1', 'T1', 'page');
  const capture = new NetworkCapture({ capacity: 10 });
  capture.attach(session);
  const emit = (method: string, params: object) => session.dispatch({ method, params, sessionId: 'S1' } as CdpEvent);
  const start = (requestId: string, url: string, extra: object = {}) =>
    emit('Network.requestWillBeSent', {
      requestId,
      request: { url, method: 'GET', headers: { Accept: '*/*' } },
      timestamp: 10,
      wallTime: 1_700_000_000,
      type: 'Fetch',
      ...extra,
    });
  const respond = (requestId: string, status: number, headers: Record<string, string> = {}) =>
    emit('Network.responseReceived', {
      requestId,
      timestamp: 10.1,
      type: 'Fetch',
      response: { url: '', status, statusText: 'OK', headers, mimeType: 'text/plain', encodedDataLength: 0 },
    });
  const finish = (requestId: string, bytes: number) => {
    emit('Network.dataReceived', { requestId, timestamp: 10.2, dataLength: bytes, encodedDataLength: bytes });
    emit('Network.loadingFinished', { requestId, timestamp: 10.25, encodedDataLength: bytes + 100 });
  };
  return { transport, capture, emit, start, respond, finish };
}

describe('NetworkCapture', () => {
  it('records a request from start to finish, merging the raw extra-info headers', () => {
    const { capture, emit, start, respond, finish } = setUp();
    const settled: number[] = [];
    capture.onSettled((_record, seq) => settled.push(seq));
    emit('Network.requestWillBeSentExtraInfo', {
      requestId: 'R1',
      headers: { Cookie: 'sid=1' },
      associatedCookies: [],
    });
    start('R1', 'http://a.test/x');
    respond('R1', 200, { 'Content-Type': 'text/plain' });
    emit('Network.responseReceivedExtraInfo', {
      requestId: 'R1',
      headers: { 'Set-Cookie': 'sid=2' },
      statusCode: 200,
      blockedCookies: [],
    });
    finish('R1', 42);
    const record = capture.requests.at(1);
    expect(record).toMatchObject({
      method: 'GET',
      url: 'http://a.test/x',
      status: 200,
      state: 'finished',
      decodedBytes: 42,
      encodedBytes: 142,
      durationMs: 250,
      startedAt: 1_700_000_000_000,
    });
    expect(record?.requestHeaders).toEqual({ Cookie: 'sid=1', Accept: '*/*' });
    expect(record?.responseHeaders).toEqual({ 'Content-Type': 'text/plain', 'Set-Cookie': 'sid=2' });
    expect(settled).toEqual([1]);
  });

  it('splits redirects into one record per hop and marks failures', () => {
    const { capture, emit, start, respond, finish } = setUp();
    start('R1', 'http://a.test/old');
    start('R1', 'http://a.test/new', {
      redirectResponse: {
        url: 'http://a.test/old',
        status: 302,
        statusText: 'Found',
        headers: { Location: '/new' },
        mimeType: '',
        encodedDataLength: 50,
      },
    });
    respond('R1', 404);
    finish('R1', 5);
    start('R2', 'http://b.test/');
    emit('Network.loadingFailed', {
      requestId: 'R2',
      timestamp: 11,
      type: 'Fetch',
      errorText: 'net::ERR_CONNECTION_REFUSED',
    });
    const records = capture.requests.entries().map(({ item }) => item);
    expect(records.map((r) => [r.url, r.status, r.state])).toEqual([
      ['http://a.test/old', 302, 'finished'],
      ['http://a.test/new', 404, 'finished'],
      ['http://b.test/', null, 'failed'],
    ]);
    expect(records.map(isFailedRequest)).toEqual([false, true, true]);
    expect(records[2]?.errorText).toBe('net::ERR_CONNECTION_REFUSED');
  });

  it('fetches bodies on demand: whole, truncated, refused by size, or gone', async () => {
    const { transport, capture, start, respond, finish } = setUp();
    transport.bodies.set('small', { body: 'hello', base64Encoded: false });
    transport.bodies.set('large', { body: 'x'.repeat(1000), base64Encoded: false });
    start('small', 'http://a.test/s');
    respond('small', 200);
    finish('small', 5);
    start('large', 'http://a.test/l');
    respond('large', 200);
    finish('large', 1000);
    start('huge', 'http://a.test/h');
    respond('huge', 200, { 'Content-Length': String(BODY_FETCH_LIMIT + 1) });
    finish('huge', 1000);
    start('gone', 'http://a.test/g');
    respond('gone', 200);
    finish('gone', 3);
    const [small, large, huge, gone] = [1, 2, 3, 4].map((seq) => capture.requests.at(seq)!);
    expect(await responseBody(small!, 100)).toEqual({
      body: 'hello',
      base64: false,
      bytes: 5,
      truncated: false,
      note: null,
    });
    const cut = await responseBody(large!, 100);
    expect(cut).toMatchObject({ body: 'x'.repeat(100), bytes: 1000, truncated: true });
    expect(cut.note).toMatch(/first 100 of 1,000 bytes/);
    const refused = await responseBody(huge!, 100);
    expect(refused.body).toBeNull();
    expect(refused.note).toMatch(/not fetched/);
    expect(transport.fetched).not.toContain('huge');
    expect((await responseBody(gone!, 100)).note).toMatch(/no longer holds/);
  });

  it('stays bounded', () => {
    const { capture, start } = setUp();
    for (let i = 0; i < 25; i++) start(`R${i}`, `http://a.test/${i}`);
    expect(capture.requests.size).toBe(10);
    expect(capture.requests.dropped).toBe(15);
  });
});
