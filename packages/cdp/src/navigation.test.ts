import { describe, expect, it } from 'vitest';
import { NavigationWatcher, isHistoryNavigation as isHistory } from './navigation.js';
import { fakeSession } from './fake-session.js';

const MAIN = 'main-frame';

function tab() {
  const { session, emit } = fakeSession();
  const watcher = new NavigationWatcher(session, () => MAIN);
  return {
    watcher,
    started: (loaderId: string, navigationType = 'differentDocument') =>
      emit('Page.frameStartedNavigating', { frameId: MAIN, loaderId, url: loaderId, navigationType }),
    committed: (loaderId: string, type = 'Navigation') =>
      emit('Page.frameNavigated', { frame: { id: MAIN, loaderId, url: `http://x/${loaderId}` }, type }),
    sameDocument: (url: string) => emit('Page.navigatedWithinDocument', { frameId: MAIN, url }),
    lifecycle: (loaderId: string, name: string) =>
      emit('Page.lifecycleEvent', { frameId: MAIN, loaderId, name, timestamp: 0 }),
  };
}

describe('NavigationWatcher: a document replaced before its load', () => {
  it('the page left behind started its navigation before the new document committed: stale (as traced in Chromium 156)', () => {
    // goto about:blank (ours) started, the old page's `location.href = …` started 7 ms later, ours
    // committed, then the page's committed over it; ours never had its load
    const t = tab();
    t.started('ours');
    t.started('theirs');
    t.lifecycle('ours', 'init');
    t.committed('ours');
    expect(t.watcher.replacedBy('ours')).toBeUndefined();
    t.lifecycle('theirs', 'init');
    t.committed('theirs');
    expect(t.watcher.replacedBy('ours')).toEqual({ loaderId: 'theirs', stale: true });
    expect(t.watcher.settled('ours', 'load')).toBe(false);
    t.lifecycle('theirs', 'load');
    expect(t.watcher.settled('ours', 'load')).toBe(true);
    // where each committed, for goto's way back to its own entry (returnToLanding)
    expect(t.watcher.committedUrlOf('ours')).toBe('http://x/ours');
    expect(t.watcher.committedUrlOf('theirs')).toBe('http://x/theirs');
    expect(t.watcher.committedUrlOf('never')).toBeUndefined();
  });

  it('a navigation started after ours and before its commit contests it until it commits (traced: after our load)', () => {
    const t = tab();
    t.started('ours');
    t.started('theirs');
    expect(t.watcher.contested('ours')).toBe(true);
    t.committed('ours');
    t.lifecycle('ours', 'load');
    expect(t.watcher.settled('ours', 'load')).toBe(true);
    expect(t.watcher.contested('ours')).toBe(true);
    t.committed('theirs');
    expect(t.watcher.contested('ours')).toBe(false);
    expect(t.watcher.replacedBy('ours')).toEqual({ loaderId: 'theirs', stale: true });
  });

  it('one started before ours (Chrome cancels it) or after our commit (the new page’s own) does not contest it', () => {
    const t = tab();
    t.started('before');
    t.started('ours');
    t.committed('ours');
    t.started('after');
    expect(t.watcher.contested('ours')).toBe(false);
  });

  it('the new document moved on by script (started after it committed): its own, followed to its load', () => {
    const t = tab();
    t.started('ours');
    t.committed('ours');
    t.started('redirect');
    t.committed('redirect');
    expect(t.watcher.replacedBy('ours')).toEqual({ loaderId: 'redirect', stale: false });
    expect(t.watcher.settled('ours', 'DOMContentLoaded')).toBe(false);
    t.lifecycle('redirect', 'DOMContentLoaded');
    expect(t.watcher.settled('ours', 'DOMContentLoaded')).toBe(true);
  });

  it('a navigation not yet committed, or the newest document, is replaced by nothing', () => {
    const t = tab();
    t.started('ours');
    t.started('other');
    t.committed('other');
    expect(t.watcher.replacedBy('ours')).toBeUndefined();
    expect(t.watcher.settled('ours', 'load')).toBe(false);
    t.lifecycle('ours', 'load');
    expect(t.watcher.settled('ours', 'load')).toBe(true);
  });

  it('without Page.frameStartedNavigating (an older Chrome), a replacement is the new document’s own', () => {
    const t = tab();
    t.committed('ours');
    t.committed('next');
    expect(t.watcher.replacedBy('ours')).toEqual({ loaderId: 'next', stale: false });
  });
});

describe('NavigationWatcher: the navigation a history entry or a reload started (its answer names no loader)', () => {
  it('the first start of its kind since it was sent, not the page’s own location.href started after it', () => {
    const t = tab();
    t.started('earlier', 'historyDifferentDocument');
    const step = t.watcher.step;
    expect(t.watcher.sentSince(step, isHistory)).toBeUndefined();
    t.started('theirs');
    t.started('back', 'historyDifferentDocument');
    t.started('later', 'historyDifferentDocument');
    expect(t.watcher.sentSince(step, isHistory)).toEqual({ loaderId: 'back' });
  });

  it('a history entry of the same document: no loader', () => {
    const t = tab();
    const step = t.watcher.step;
    t.sameDocument('http://x/#one');
    expect(t.watcher.sentSince(step, isHistory)).toEqual({ loaderId: undefined });
  });

  it('without Page.frameStartedNavigating (an older Chrome): the first document committed since it was sent', () => {
    const t = tab();
    t.committed('before');
    const step = t.watcher.step;
    t.committed('back');
    t.committed('next');
    expect(t.watcher.sentSince(step, isHistory)).toEqual({ loaderId: 'back' });
  });

  it('a document restored from the back/forward cache commits under its first loader: the navigation’s commit, loaded (traced on Chromium 156)', () => {
    // started 8879 (historyDifferentDocument), committed 3A82 (BackForwardCacheRestore), no lifecycle events
    const t = tab();
    const step = t.watcher.step;
    t.started('8879', 'historyDifferentDocument');
    t.committed('3A82', 'BackForwardCacheRestore');
    expect(t.watcher.sentSince(step, isHistory)).toEqual({ loaderId: '8879' });
    expect(t.watcher.replacedBy('8879')).toBeUndefined();
    expect(t.watcher.settled('8879', 'load')).toBe(true);
    expect(t.watcher.committedLoader).toBe('3A82');
    expect(t.watcher.reached('3A82', 'load')).toBe(true);
  });

  it('restored while the page left behind has a navigation under way: the history navigation’s commit, not that one’s', () => {
    const t = tab();
    t.started('back', 'historyDifferentDocument');
    t.started('theirs');
    t.committed('doc', 'BackForwardCacheRestore');
    expect(t.watcher.settled('back', 'load')).toBe(true);
    expect(t.watcher.contested('back')).toBe(true);
    t.committed('theirs');
    expect(t.watcher.replacedBy('back')).toEqual({ loaderId: 'theirs', stale: true });
  });
});
