import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import {
  Browser,
  type ChromeProcess,
  CommandCancelledError,
  connectCri,
  launchChrome,
  runInCommandScope,
  type Transport,
} from '../src/index.js';
import { TYPE_BATCH_CHARS } from '../src/page-keyboard.js';

/** Counts the key events a transport carries and how many are unanswered at once. */
interface KeyTraffic {
  sent: number;
  answered: number;
  inFlight: number;
  maxInFlight: number;
  /** called after each answer (a test's hook, e.g. to cancel the command part way) */
  onAnswer?: () => void;
}

const KEY_METHODS = new Set(['Input.dispatchKeyEvent', 'Input.insertText']);

function countingKeys(transport: Transport, traffic: KeyTraffic): Transport {
  return {
    send(method, params, sessionId) {
      if (!KEY_METHODS.has(method)) return transport.send(method, params, sessionId);
      traffic.sent++;
      traffic.maxInFlight = Math.max(traffic.maxInFlight, ++traffic.inFlight);
      return transport.send(method, params, sessionId).finally(() => {
        traffic.inFlight--;
        traffic.answered++;
        traffic.onAnswer?.();
      });
    },
    onEvent: (listener) => transport.onEvent(listener),
    onClose: (listener) => transport.onClose(listener),
    get closed() {
      return transport.closed;
    },
    close: () => transport.close(),
  };
}

// every key event the field sees, in order, as `type:key` (input events as `input:<data>`)
const FIELDS = `<!doctype html><meta charset="utf-8">
<textarea id="area"></textarea>
<form id="form" onsubmit="window.submitted = document.getElementById('line').value; return false"><input id="line"></form>
<script>
window.seen = [];
for (const id of ['area', 'line']) {
  const el = document.getElementById(id);
  for (const type of ['keydown', 'keypress', 'keyup']) el.addEventListener(type, (e) => seen.push(type + ':' + e.key));
  el.addEventListener('input', (e) => seen.push('input:' + e.data));
}
</script>`;

describe('typing', () => {
  let chrome: ChromeProcess;
  let browser: Browser;
  let fixtures: FixtureServer;
  const traffic: KeyTraffic = { sent: 0, answered: 0, inFlight: 0, maxInFlight: 0 };

  beforeAll(async () => {
    fixtures = await startFixtureServer({ pages: { '/fields': FIELDS } });
    chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9'] });
    browser = await Browser.connect(countingKeys(await connectCri(chrome.wsEndpoint), traffic), {});
  });
  afterAll(async () => {
    await browser?.close();
    await chrome?.kill();
    await fixtures?.close();
  });

  function reset(): void {
    Object.assign(traffic, { sent: 0, answered: 0, inFlight: 0, maxInFlight: 0, onAnswer: undefined });
  }

  it('types a long text as real key events, in order, without waiting for each answer', async () => {
    const page = await browser.newPage();
    await page.navigate(fixtures.urlFor('/fields'));
    await page.evaluate(`document.getElementById('area').focus()`);
    const line = 'Hello, World! 123 (a+b)*c = "x" ~ é ✓\n';
    const text = line.repeat(30);
    reset();
    await page.typeText(text);
    expect(await page.evaluate(`document.getElementById('area').value`)).toBe(text);
    const seen = await page.evaluate<string[]>('window.seen');
    // the first line, key by key: a key press is keydown, keypress, input, keyup; é and ✓ have no
    // key and are inserted as text; a line break is Enter
    const firstLine = seen.slice(0, seen.indexOf('keyup:Enter') + 1);
    const expected: string[] = [];
    for (const char of line) {
      if (char === 'é' || char === '✓') expected.push(`input:${char}`);
      else if (char === '\n') expected.push('keydown:Enter', 'keypress:Enter', 'input:null', 'keyup:Enter');
      else expected.push(`keydown:${char}`, `keypress:${char}`, `input:${char}`, `keyup:${char}`);
    }
    expect(firstLine).toEqual(expected);
    expect(seen).toHaveLength(expected.length * 30);
    // pipelined: many key events in flight at once (one at a time before), never more than a batch
    expect(traffic.maxInFlight).toBeGreaterThan(10);
    expect(traffic.maxInFlight).toBeLessThanOrEqual(2 * TYPE_BATCH_CHARS);
    await browser.closePage(page.id);
  });

  it('keeps Enter in order with the keys before it: a form submits what was typed before it', async () => {
    const page = await browser.newPage();
    await page.navigate(fixtures.urlFor('/fields'));
    await page.evaluate(`document.getElementById('line').focus()`);
    await page.typeText('jane@example.com\nmore');
    expect(await page.evaluate('window.submitted')).toBe('jane@example.com');
    expect(await page.evaluate(`document.getElementById('line').value`)).toBe('jane@example.commore');
    await page.press('Control+a');
    await page.press('Backspace');
    expect(await page.evaluate(`document.getElementById('line').value`)).toBe('');
    await browser.closePage(page.id);
  });

  it('stops typing when the command is cancelled (its caller went away)', async () => {
    const page = await browser.newPage();
    await page.navigate(fixtures.urlFor('/fields'));
    await page.evaluate(`document.getElementById('area').focus()`);
    const text = 'x'.repeat(5_000);
    const controller = new AbortController();
    reset();
    let sentAtAbort = 0;
    traffic.onAnswer = () => {
      if (traffic.answered === 200 && !controller.signal.aborted) {
        sentAtAbort = traffic.sent;
        controller.abort();
      }
    };
    const typing = runInCommandScope({ signal: controller.signal }, () => page.typeText(text));
    await expect(typing).rejects.toBeInstanceOf(CommandCancelledError);
    // nothing sent after the cancel, and what was sent ends (Chrome answers it) with the field short of the text
    expect(traffic.sent).toBe(sentAtAbort);
    while (traffic.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const typed = await page.evaluate<number>(`document.getElementById('area').value.length`);
    expect(typed).toBe(Math.ceil(sentAtAbort / 2));
    expect(typed).toBeLessThan(text.length);
    await browser.closePage(page.id);
  });
});
