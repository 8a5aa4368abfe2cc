import { describe, expect, it } from 'vitest';
import { ARMED_DIALOG_TTL_MS, MAX_ARMED_DIALOG_ANSWERS, MAX_REPORTED_DIALOGS, PageCapture } from './capture.js';
import { Session } from './session.js';
import type { CdpEvent, Transport } from './transport.js';

/** Records the answers the capture sends; no browser behind it. */
class FakeTransport implements Transport {
  closed = false;
  answers: object[] = [];
  async send(method: string, params: object | undefined) {
    if (method === 'Page.handleJavaScriptDialog') this.answers.push(params ?? {});
    return {};
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
  const capture = new PageCapture();
  capture.attach(session);
  const open = (type: string, message: string) =>
    session.dispatch({
      method: 'Page.javascriptDialogOpening',
      params: { url: 'http://x/', message, type, hasBrowserHandler: false, defaultPrompt: '' },
      sessionId: 'S1',
    } as CdpEvent);
  return { transport, capture, open };
}

describe('PageCapture dialogs', () => {
  it('armed answers are used in order, then the default', () => {
    const { transport, capture, open } = setUp();
    capture.armDialog({ accept: true, promptText: 'Ada' });
    capture.armDialog({ accept: false });
    expect(capture.armedAnswers()).toHaveLength(2);
    open('prompt', 'Name?');
    open('confirm', 'Sure?');
    open('confirm', 'Really?');
    expect(capture.dialogs.entries().map(({ item }) => [item.handled, item.promptText])).toEqual([
      ['accepted', 'Ada'],
      ['dismissed', undefined],
      ['dismissed', undefined],
    ]);
    expect(transport.answers).toEqual([{ accept: true, promptText: 'Ada' }, { accept: false }, { accept: false }]);
  });

  it('a full queue refuses one more; disarm empties it; an unused answer lapses', () => {
    const { capture, open } = setUp();
    for (let i = 0; i < MAX_ARMED_DIALOG_ANSWERS; i++) capture.armDialog({ accept: true });
    expect(() => capture.armDialog({ accept: true })).toThrow(/already armed/);
    expect(capture.disarmDialogs()).toBe(MAX_ARMED_DIALOG_ANSWERS);
    capture.armDialog({ accept: true }, Date.now() - ARMED_DIALOG_TTL_MS - 1);
    expect(capture.armedAnswers()).toEqual([]);
    open('confirm', 'Sure?');
    expect(capture.dialogs.entries()[0]?.item.handled).toBe('dismissed');
  });

  it('each dialog is reported once, the newest at most, messages cut', () => {
    const { capture, open } = setUp();
    for (let i = 0; i < MAX_REPORTED_DIALOGS + 3; i++) open('alert', `${i} ${'x'.repeat(1_000)}`);
    const reported = capture.takeUnreported();
    expect(reported).toHaveLength(MAX_REPORTED_DIALOGS);
    expect(reported[0]?.message.startsWith('3 ')).toBe(true);
    expect(reported[0]?.message.length).toBe(500);
    expect(capture.takeUnreported()).toEqual([]);
    open('alert', 'later');
    capture.markReported();
    expect(capture.takeUnreported()).toEqual([]);
  });
});
