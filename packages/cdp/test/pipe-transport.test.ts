// The DevTools pipe (issue 16): a launched Chrome with `pipe: true` opens no port, speaks CDP over
// its descriptors 3 and 4, and ends when the pipe closes.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Browser,
  type CdpEvent,
  type PipedChromeProcess,
  ProtocolError,
  type Transport,
  TransportClosedError,
  connectChrome,
  connectPipe,
  launchChrome,
  startFailure,
} from '../src/index.js';
import { ArgusError } from '@argus/protocol';

const FLAGS = ['--proxy-server=http://127.0.0.1:9'];
let chrome: PipedChromeProcess | undefined;
let transport: Transport | undefined;

afterEach(async () => {
  await transport?.close();
  await chrome?.kill();
  chrome = undefined;
  transport = undefined;
});

/** The inodes of every socket the processes of group `pgid` hold open. */
function socketInodesOf(pgid: number): Set<string> {
  const inodes = new Set<string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // field 5 of /proc/PID/stat (after the command in parentheses) is the process group
      const group = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[2]);
      if (group !== pgid) continue;
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        let link: string;
        try {
          link = readlinkSync(`/proc/${entry}/fd/${fd}`);
        } catch {
          // closed meanwhile (a starting Chrome opens and closes files all the time): the process's
          // other descriptors still count (CI once missed the port this way when the whole process was skipped)
          continue;
        }
        const match = /^socket:\[(\d+)\]$/.exec(link);
        if (match) inodes.add(match[1]!);
      }
    } catch {
      // a process that ended meanwhile
    }
  }
  return inodes;
}

/** TCP ports in LISTEN state (st 0A) whose socket is one of `inodes`. */
function listeningPorts(inodes: Set<string>): number[] {
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && inodes.has(fields[9]!)) ports.push(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

describe.runIf(process.platform === 'linux')('a Chrome launched with a DevTools pipe', () => {
  it('opens no TCP port another local process could drive it through, and is driven over the pipe', async () => {
    chrome = await launchChrome({ pipe: true, extraFlags: FLAGS });
    expect(chrome.wsEndpoint).toBeUndefined();
    transport = await connectChrome(chrome);
    const browser = await Browser.connect(transport);
    expect((await browser.version()).product).toMatch(/Chrome/);
    const page = browser.attachedPages()[0]!;
    await page.navigate('data:text/html,<title>piped</title><p>over the pipe</p>');
    expect(await page.evaluate('document.title')).toBe('piped');
    // the attack: look for a listening socket of the browser's processes, as a port scan would find it
    expect(readFileSync(`/proc/${chrome.pid}/cmdline`, 'utf8')).not.toContain('--remote-debugging-port');
    expect(listeningPorts(socketInodesOf(chrome.pid))).toEqual([]);
  });

  it('(the same search finds the port of a Chrome launched with one)', async () => {
    const exposed = await launchChrome({ extraFlags: FLAGS });
    try {
      expect(listeningPorts(socketInodesOf(exposed.pid))).toContain(Number(new URL(exposed.wsEndpoint).port));
    } finally {
      await exposed.kill();
    }
  });

  it('routes replies by id, errors as ProtocolError, events with their session; one turn is one write', async () => {
    chrome = await launchChrome({ pipe: true, extraFlags: FLAGS });
    transport = await connectChrome(chrome);
    const events: CdpEvent[] = [];
    transport.onEvent((event) => events.push(event));
    const socket = chrome.pipe.toChrome as unknown as Record<string, (...args: unknown[]) => unknown>;
    const original = { _write: socket['_write']!, _writev: socket['_writev']! };
    let writes = 0;
    for (const name of ['_write', '_writev'] as const)
      socket[name] = (...args: unknown[]) => {
        writes++;
        return original[name].apply(socket, args);
      };
    const [version, targets, failure] = await Promise.all([
      transport.send('Browser.getVersion', undefined, undefined),
      transport.send('Target.getTargets', undefined, undefined),
      transport
        .send('Target.attachToTarget', { targetId: 'no-such-target' }, undefined)
        .catch((error: unknown) => error),
    ]);
    Object.assign(socket, original);
    expect(writes).toBe(1);
    expect(version).toMatchObject({ product: expect.stringMatching(/Chrome/) });
    const page = (targets as { targetInfos: { targetId: string; type: string }[] }).targetInfos.find(
      (target) => target.type === 'page',
    )!;
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).method).toBe('Target.attachToTarget');
    const { sessionId } = (await transport.send(
      'Target.attachToTarget',
      { targetId: page.targetId, flatten: true },
      undefined,
    )) as { sessionId: string };
    await transport.send('Runtime.enable', undefined, sessionId);
    expect(events).toContainEqual(
      expect.objectContaining({ method: 'Runtime.executionContextCreated', sessionId: sessionId }),
    );
  });

  it('fails commands in flight with TransportClosedError when Chrome dies; closing the pipe ends Chrome', async () => {
    chrome = await launchChrome({ pipe: true, extraFlags: FLAGS });
    transport = await connectChrome(chrome);
    await transport.send('Browser.getVersion', undefined, undefined);
    const { targetInfos } = (await transport.send('Target.getTargets', undefined, undefined)) as {
      targetInfos: { targetId: string; type: string }[];
    };
    const { sessionId } = (await transport.send(
      'Target.attachToTarget',
      { targetId: targetInfos.find((target) => target.type === 'page')!.targetId, flatten: true },
      undefined,
    )) as { sessionId: string };
    const reasons: string[] = [];
    transport.onClose((reason) => reasons.push(reason));
    // a command that never answers on its own
    const pending = transport
      .send('Runtime.evaluate', { expression: 'new Promise(() => {})', awaitPromise: true }, sessionId)
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(-chrome.pid, 'SIGKILL');
    expect(await pending).toBeInstanceOf(TransportClosedError);
    expect(reasons).toEqual(['the browser connection dropped']);
    await expect(transport.send('Browser.getVersion', undefined, undefined)).rejects.toBeInstanceOf(
      TransportClosedError,
    );

    const second = await launchChrome({ pipe: true, extraFlags: FLAGS });
    chrome = second;
    const secondTransport = await connectChrome(second);
    await secondTransport.send('Browser.getVersion', undefined, undefined);
    await secondTransport.close();
    // Chrome shuts down by itself once its pipe closes (no signal sent)
    const exit = await Promise.race([second.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    expect(exit).toBeDefined();
  });

  it('reports a Chrome that exits before it is ready with its exit and its last output', async () => {
    // "Chrome" here is a shell that refuses Chrome's first flag and exits: only the pipe's close is seen
    chrome = await launchChrome({ pipe: true, executablePath: '/bin/sh', extraFlags: FLAGS });
    transport = await connectChrome(chrome);
    const failure = await transport.send('Browser.getVersion', undefined, undefined).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportClosedError);
    const reported = (await startFailure(chrome, failure)) as ArgusError;
    expect(reported).toBeInstanceOf(ArgusError);
    expect(reported.code).toBe('browser_crashed');
    expect(reported.message).toMatch(
      /^Chrome exited before it was ready \(exit code 2\)\. Its last output: .*Illegal option/,
    );
    expect(chrome.hasExited).toBe(true);
  });
});

describe('the pipe framing', () => {
  function fakePipe() {
    const toChrome = new PassThrough();
    const fromChrome = new PassThrough();
    const sent: string[] = [];
    toChrome.on('data', (chunk: Buffer) => sent.push(...chunk.toString('utf8').split('\0').filter(Boolean)));
    return { pipe: { toChrome, fromChrome }, sent };
  }

  it('reads messages split across chunks, several in one chunk, and characters split between chunks', async () => {
    const { pipe, sent } = fakePipe();
    transport = connectPipe(pipe);
    const events: CdpEvent[] = [];
    transport.onEvent((event) => events.push(event));
    const first = transport.send('Runtime.evaluate', { expression: '1' }, 'S1');
    const second = transport.send('Browser.getVersion', undefined, undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((text) => JSON.parse(text) as unknown)).toEqual([
      { id: 1, method: 'Runtime.evaluate', params: { expression: '1' }, sessionId: 'S1' },
      { id: 2, method: 'Browser.getVersion', params: {} },
    ]);
    const bytes = Buffer.from(
      '{"method":"Page.loadEventFired","params":{"timestamp":1},"sessionId":"S1"}\0' +
        '{"id":2,"result":{"product":"Chrome/1 – é"}}\0{"id":1,"error":{"code":-32000,"message":"nope","data":"why"}}\0',
      'utf8',
    );
    const dash = bytes.indexOf(Buffer.from('–'));
    // cut inside the first message, inside the multi-byte dash, and deliver the rest at once
    pipe.fromChrome.write(bytes.subarray(0, 10));
    pipe.fromChrome.write(bytes.subarray(10, dash + 1));
    pipe.fromChrome.write(bytes.subarray(dash + 1));
    expect(await second).toEqual({ product: 'Chrome/1 – é' });
    const failure = await first.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as Error).message).toBe('Runtime.evaluate: nope (why)');
    expect(events).toEqual([{ method: 'Page.loadEventFired', params: { timestamp: 1 }, sessionId: 'S1' }]);
  });

  it('rejects what is in flight when the pipe ends, and everything after', async () => {
    const { pipe } = fakePipe();
    transport = connectPipe(pipe);
    const pending = transport.send('Browser.getVersion', undefined, undefined);
    pipe.fromChrome.end();
    await expect(pending).rejects.toBeInstanceOf(TransportClosedError);
    expect(transport.closed).toBe(true);
    await expect(transport.send('Browser.getVersion', undefined, undefined)).rejects.toThrow(/connection is closed/);
  });
});
