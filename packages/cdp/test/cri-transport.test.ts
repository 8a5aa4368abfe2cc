// CriTransport writes the messages of one event-loop turn to Chrome's socket together (issue 16):
// on a loopback socket each write is most of a message's cost, and each one wakes Chrome.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgusError } from '@argus/protocol';
import { type ChromeProcess, type Transport, connectCri, launchChrome, resolveBrowserEndpoint } from '../src/index.js';

let chrome: ChromeProcess;
let transport: Transport;

beforeAll(async () => {
  chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9'] });
  transport = await connectCri(chrome.wsEndpoint);
});

afterAll(async () => {
  await transport?.close();
  await chrome?.kill();
});

/** Counts the socket writes (each a write or writev system call) made while `run` runs. */
async function writesDuring(run: () => Promise<unknown>): Promise<number> {
  // the socket under chrome-remote-interface's WebSocket (the same internals the transport uses)
  const socket = (transport as unknown as { client: { _ws: { _socket: Record<string, unknown> } } }).client._ws._socket;
  const original = { _write: socket['_write'], _writev: socket['_writev'] } as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  let writes = 0;
  for (const name of ['_write', '_writev'])
    socket[name] = (...args: unknown[]) => {
      writes++;
      return original[name]!.apply(socket, args);
    };
  try {
    await run();
  } finally {
    Object.assign(socket, original);
  }
  return writes;
}

describe('CriTransport', () => {
  it('sends the messages of one turn in one write, and every one is answered', async () => {
    const answers: unknown[] = [];
    const writes = await writesDuring(async () => {
      answers.push(
        ...(await Promise.all([
          transport.send('Browser.getVersion', undefined, undefined),
          transport.send('Target.getTargets', undefined, undefined),
          // one sent from a promise job of the same turn joins them
          Promise.resolve().then(() => transport.send('Browser.getVersion', undefined, undefined)),
        ])),
      );
    });
    expect(writes).toBe(1);
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatchObject({ product: expect.stringMatching(/Chrome/) });
    expect(answers[1]).toMatchObject({ targetInfos: expect.any(Array) });
  });

  it('writes messages of different turns separately (none waits for a later one)', async () => {
    const writes = await writesDuring(async () => {
      await transport.send('Browser.getVersion', undefined, undefined);
      await transport.send('Browser.getVersion', undefined, undefined);
    });
    expect(writes).toBe(2);
  });
});

describe('resolveBrowserEndpoint', () => {
  const port = () => new URL(chrome.wsEndpoint).port;

  it("keeps an address's query on /json/version and on the WebSocket URL it names (a grid's ?token=)", async () => {
    // `http://grid/?token=t` asked `/?token=t/json/version` (404) and the socket went without the token
    const endpoint = await resolveBrowserEndpoint(`http://127.0.0.1:${port()}/?token=s3cret`);
    expect(endpoint).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:${port()}/devtools/browser/[\\w-]+\\?token=s3cret$`));
    // Chromium takes the socket with the query on it
    const withToken = await connectCri(endpoint);
    try {
      expect(await withToken.send('Browser.getVersion', undefined, undefined)).toMatchObject({
        product: expect.stringMatching(/Chrome/),
      });
    } finally {
      await withToken.close();
    }
    expect(await resolveBrowserEndpoint(`http://127.0.0.1:${port()}`)).toBe(chrome.wsEndpoint);
  });

  it('says an address that serves no /json/version is no DevTools endpoint (not a JSON parse error)', async () => {
    const failure = await resolveBrowserEndpoint(`http://127.0.0.1:${port()}/nope/`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ArgusError);
    expect(failure).toMatchObject({ code: 'browser_not_found' });
    expect((failure as Error).message).toMatch(/is no DevTools endpoint: \/json\/version answered HTTP 404/);
  });
});
