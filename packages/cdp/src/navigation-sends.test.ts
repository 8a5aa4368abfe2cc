import { describe, expect, it } from 'vitest';
import { NavigationWatcher } from './navigation.js';
import {
  type NavigationSend,
  returnToEntry,
  sendReload,
  sendTo,
  sendToEntry,
  sendUntilLanded,
} from './navigation-sends.js';
import type { Page } from './page.js';
import { fakeSession } from './fake-session.js';

const MAIN = 'main-frame';
type Event = [name: string, params: unknown];

const started = (loaderId: string, navigationType = 'differentDocument'): Event => [
  'Page.frameStartedNavigating',
  { frameId: MAIN, loaderId, url: loaderId, navigationType },
];
const committed = (loaderId: string): Event => [
  'Page.frameNavigated',
  { frame: { id: MAIN, loaderId, url: `http://x/${loaderId}` }, type: 'Navigation' },
];
const loaded = (loaderId: string): Event => [
  'Page.lifecycleEvent',
  { frameId: MAIN, loaderId, name: 'load', timestamp: 0 },
];

/**
 * A tab that answers each call with the next answer scripted for its method and then tells the
 * events scripted with it, one macrotask apart (as they come over the wire, after the answer).
 */
function scriptedTab(script: Record<string, Array<{ result?: unknown; events?: Event[] }>>) {
  const calls: Array<[string, unknown]> = [];
  const { session, emit } = fakeSession({
    guard: <T>(waiting: Promise<T>) => waiting,
    async send(method: string, params?: unknown) {
      calls.push([method, params]);
      const next = script[method]?.shift();
      if (!next) throw new Error(`unscripted ${method}`);
      void (async () => {
        for (const event of next.events ?? []) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          emit(...event);
        }
      })();
      return next.result ?? {};
    },
  });
  // only what sending a navigation uses of a Page: its session and main frame
  const page = { session, mainFrameId: MAIN } as unknown as Page;
  const watcher = new NavigationWatcher(page.session, () => MAIN);
  return { page, watcher, calls };
}

const entry = { id: 6, url: 'http://x/a.html' };
const history = (...ids: number[]) => ({
  result: { currentIndex: ids.length - 1, entries: ids.map((id) => ({ id, url: `http://x/${id}` })) },
});

describe('sendUntilLanded: a navigation overtaken by one the page left behind had under way', () => {
  it('back: the page’s navigation started after ours and committed before our load: the same entry is sent again (traced on Chromium 156)', async () => {
    const tab = scriptedTab({
      'Page.navigateToHistoryEntry': [
        {
          events: [
            started('back1', 'historyDifferentDocument'),
            started('theirs'),
            committed('back1'),
            committed('theirs'),
            loaded('theirs'),
          ],
        },
        { events: [started('back2', 'historyDifferentDocument'), committed('back2'), loaded('back2')] },
      ],
      // the page's navigation came after the entry, as a new one
      'Page.getNavigationHistory': [history(4, 6, 10)],
    });
    const back: NavigationSend = {
      what: 'Going back',
      first: () => sendToEntry(tab.page, entry),
      again: () => returnToEntry(tab.page, entry),
    };
    expect(await sendUntilLanded(tab.page, tab.watcher, back, 'load', 2_000)).toBe('back2');
    expect(tab.calls).toEqual([
      ['Page.navigateToHistoryEntry', { entryId: 6 }],
      ['Page.getNavigationHistory', undefined],
      ['Page.navigateToHistoryEntry', { entryId: 6 }],
    ]);
  });

  it('reload: sent again, it goes back to the entry reloaded (Page.reload would reload the page’s document)', async () => {
    const tab = scriptedTab({
      'Page.reload': [
        { events: [started('reload', 'reload'), started('theirs'), committed('reload'), committed('theirs')] },
      ],
      'Page.getNavigationHistory': [history(4, 6, 10)],
      'Page.navigateToHistoryEntry': [
        { events: [started('entry', 'historyDifferentDocument'), committed('entry'), loaded('entry')] },
      ],
    });
    const reload: NavigationSend = {
      what: 'Reload',
      first: () => sendReload(tab.page),
      again: () => returnToEntry(tab.page, entry),
    };
    expect(await sendUntilLanded(tab.page, tab.watcher, reload, 'load', 2_000)).toBe('entry');
    expect(tab.calls.map(([method]) => method)).toEqual([
      'Page.reload',
      'Page.getNavigationHistory',
      'Page.navigateToHistoryEntry',
    ]);
  });

  it('the page’s navigation took the entry’s place (location.replace): its URL is loaded again', async () => {
    const tab = scriptedTab({
      'Page.navigateToHistoryEntry': [
        {
          events: [
            started('back', 'historyDifferentDocument'),
            started('theirs'),
            committed('back'),
            committed('theirs'),
          ],
        },
      ],
      'Page.getNavigationHistory': [history(4, 11)],
      'Page.navigate': [
        { result: { frameId: MAIN, loaderId: 'url' }, events: [started('url'), committed('url'), loaded('url')] },
      ],
    });
    const back: NavigationSend = {
      what: 'Going back',
      first: () => sendToEntry(tab.page, entry),
      again: () => returnToEntry(tab.page, entry),
    };
    expect(await sendUntilLanded(tab.page, tab.watcher, back, 'load', 2_000)).toBe('url');
    expect(tab.calls.at(-1)).toEqual(['Page.navigate', { url: entry.url, frameId: MAIN }]);
  });

  it('a navigation of the page that started after our commit is the new page’s own: followed, not sent again', async () => {
    const tab = scriptedTab({
      'Page.reload': [
        { events: [started('reload', 'reload'), committed('reload'), started('own'), committed('own'), loaded('own')] },
      ],
    });
    const reload: NavigationSend = {
      what: 'Reload',
      first: () => sendReload(tab.page),
      again: () => Promise.reject(new Error('not sent again')),
    };
    expect(await sendUntilLanded(tab.page, tab.watcher, reload, 'load', 2_000)).toBe('reload');
    expect(tab.calls.map(([method]) => method)).toEqual(['Page.reload']);
  });

  it('one still under way once our document has its load is stopped', async () => {
    const tab = scriptedTab({
      'Page.reload': [
        { events: [started('reload', 'reload'), started('theirs'), committed('reload'), loaded('reload')] },
      ],
      'Page.stopLoading': [{}],
    });
    const reload: NavigationSend = {
      what: 'Reload',
      first: () => sendReload(tab.page),
      again: () => Promise.reject(new Error('not sent again')),
    };
    expect(await sendUntilLanded(tab.page, tab.watcher, reload, 'load', 2_000)).toBe('reload');
    expect(tab.calls.map(([method]) => method)).toEqual(['Page.reload', 'Page.stopLoading']);
  });

  it('goto: three sends at most, then the document it landed on', async () => {
    const overtaken = (ours: string, theirs: string) => ({
      result: { frameId: MAIN, loaderId: ours },
      events: [started(ours), started(theirs), committed(ours), committed(theirs), loaded(theirs)],
    });
    const tab = scriptedTab({ 'Page.navigate': [overtaken('g1', 't1'), overtaken('g2', 't2'), overtaken('g3', 't3')] });
    const send = () => sendTo(tab.page, 'http://x/asked');
    const goto: NavigationSend = { what: 'Navigation', first: send, again: send };
    expect(await sendUntilLanded(tab.page, tab.watcher, goto, 'load', 2_000)).toBe('g3');
    expect(tab.calls).toHaveLength(3);
  });
});
