import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArgusError, commandByName } from '@argus/protocol';
import { RELAY_EVENTS, type RelayEventName, type RelayEventParams } from '@argus/relay/wire';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionMode } from './browser-manager.js';
import { startExtensionPanel } from './extension-panel.js';
import { InboxStore } from './inbox/inbox-store.js';
import { WatchFeed } from './watch/watch-feed.js';
import { runAfterReply } from './after-reply.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(mode: SessionMode = 'extension') {
  const dir = mkdtempSync(join(tmpdir(), 'argus-panel-'));
  dirs.push(dir);
  const inbox = new InboxStore(join(dir, 'inbox.json'));
  const feed = new WatchFeed(() => ({ tab: 'T1', url: 'http://127.0.0.1/' }));
  const sent: Array<{ event: RelayEventName; params: unknown }> = [];
  const notify = <E extends RelayEventName>(event: E, params: RelayEventParams<E>) => {
    // what the relay would put on the wire must pass the extension's own check
    expect(RELAY_EVENTS[event].safeParse(params).success).toBe(true);
    sent.push({ event, params });
    return true;
  };
  const panel = startExtensionPanel({ manager: { mode }, feed, inbox, notify });
  /** One call through the observe seam, as the router makes it, and the book-keeping after its reply. */
  const run = (name: string, input: unknown, error?: unknown) => {
    const command = commandByName(name);
    if (!command) throw new Error(`no command ${name}`);
    feed.observe({ scopes: ['admin'] }, command, input)?.(error, {});
    runAfterReply();
  };
  return { inbox, panel, sent, run };
}

describe('extension panel', () => {
  it('pushes commands that act on a tab, with the CLI verb, the redacted target and the result', () => {
    const { sent, run } = setup();
    run('input.fill', { target: '#pass', text: 'hunter2' });
    run('input.click', { target: 'e7' }, new ArgusError('ref_stale', 'stale'));
    run('page.goto', { url: 'http://127.0.0.1/a?token=abc123&x=1' });
    run('tabs.list', {}); // reads the tab list: says nothing happened to a tab
    run('inbox.list', {}); // not about a tab
    expect(sent.map((item) => item.params)).toMatchObject([
      { targetId: 'T1', verb: 'fill', target: '#pass', ok: true, error: null },
      { verb: 'click', target: 'e7', ok: false, error: 'ref_stale' },
      { verb: 'goto', target: expect.stringContaining('x=1') },
    ]);
    expect(JSON.stringify(sent)).not.toContain('hunter2');
    expect(JSON.stringify(sent)).not.toContain('abc123');
  });

  it('sends nothing outside extension mode: the managed browser is not the user’s', () => {
    const { sent, run } = setup('managed');
    run('input.click', { target: 'e1' });
    expect(sent).toEqual([]);
  });

  it('pushes the unread inbox, newest first, on every change; stop ends it', () => {
    const { inbox, panel, sent } = setup();
    const element = {
      locator: 'label="Name"',
      ref: 'e1',
      role: 'textbox',
      name: 'Name',
      text: '',
      value: null,
      masked: false,
    };
    const box = { x: 0, y: 0, width: 1, height: 1 };
    for (const note of ['one', 'two'])
      inbox.add({
        source: 'extension',
        tab: 'T1',
        url: 'http://127.0.0.1/',
        title: note,
        elements: [{ ...element, box, note }],
      });
    const last = sent.at(-1);
    expect(last?.event).toBe('panel.inbox');
    expect(last?.params).toMatchObject({
      unread: 2,
      items: [{ title: 'two', elements: [{ note: 'two', locator: 'label="Name"' }] }, { title: 'one' }],
    });
    inbox.consume(1);
    expect(sent.at(-1)?.params).toMatchObject({ unread: 1, items: [{ title: 'two' }] });
    panel.stop();
    const count = sent.length;
    inbox.clear();
    expect(sent).toHaveLength(count);
  });
});
