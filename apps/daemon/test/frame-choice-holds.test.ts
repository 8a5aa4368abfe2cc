import { describe, expect, it, vi } from 'vitest';
import { failure, refOf, useHarness, useOtherSite } from './harness.js';

/**
 * The frame chosen with `argus frame` holds for every command that would run in it: `wait` for a
 * CSS selector, a text or the load event, `snapshot --scope`, `scroll`, `cleanup`, `title`,
 * `storage` and `perf` run in it (across a re-render or a navigation of the frame), and fail with
 * `ref_stale` when it is gone. A capture of the whole top document (`screenshot --full`, `pdf`,
 * `responsive --full`) cannot be of a frame: it fails with `frame_chosen` while one is chosen. A
 * navigation of the top document ends the choice, never silently: the agent's own goto, back,
 * forward and reload say so in their reply; after any other (a link, a script), the next command
 * that would have run in the frame fails saying so.
 */

const h = useHarness();
const other = useOtherSite();

const js = async <T>(code: string): Promise<T> => (await h.client.page.eval.mutate({ js: code })).value as T;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const wait = (input: { selector?: string; text?: string; timeoutMs: number }) => h.client.page.wait.mutate(input);
const snapshotOf = async (scope: string) => (await h.client.snapshot.take.mutate({ scope })).text;

/**
 * The host page with its iframe chosen (from another site, out of process, with `crossSite`): the
 * frame shows "Render N", a Ready button and a link that navigates the top document.
 */
async function chooseInner(crossSite = false): Promise<void> {
  await h.client.dom.frame.mutate({ main: true });
  const src = crossSite ? `?src=${encodeURIComponent(other.server.urlFor('/frame-rerender-child.html'))}` : '';
  await h.client.page.goto.mutate({ url: h.server.urlFor(`/frame-rerender.html${src}`) });
  await h.client.dom.frame.mutate({ target: '#inner' });
  expect(await js('document.title')).toBe('Rendered child');
}

/**
 * frame-scope.html with its iframe chosen (from another site with `crossSite`): the host and the
 * frame are both taller than their viewports and both show a cookie banner.
 */
async function chooseScoped(crossSite = false): Promise<void> {
  await h.client.dom.frame.mutate({ main: true });
  const src = crossSite ? `?src=${encodeURIComponent(other.server.urlFor('/frame-scope-child.html'))}` : '';
  await h.client.page.goto.mutate({ url: h.server.urlFor(`/frame-scope.html${src}`) });
  await h.client.dom.frame.mutate({ target: '#inner' });
  expect(await js('document.title')).toBe('Scoped child');
}

/** The iframe's page asks the host to remove it; after the host did. */
async function removeInner(): Promise<void> {
  await js(`parent.postMessage('remove', '*'); true`);
  await pause(300);
}

/** Fails with the lost choice's ref_stale, for `reason`. */
async function expectStale(call: Promise<unknown>, reason: string, label: string): Promise<string> {
  const error = await failure(call);
  expect(error.code, label).toBe('ref_stale');
  expect(error.message, label).toContain('The frame chosen with `argus frame "#inner"` is gone');
  expect(error.message, label).toContain('`argus frame main`');
  expect(error.details, label).toMatchObject({ reason, chosenWith: { target: '#inner' } });
  return error.message;
}

describe('argus wait in the chosen frame', () => {
  it('waits for a CSS selector or a text in the frame, across a re-render and a navigation of it', async () => {
    await chooseInner();
    // '#ready' and "Render 1" are only in the iframe's document; <h1> only in the top one
    expect((await wait({ selector: '#ready', timeoutMs: 2000 })).matched).toBe('#ready');
    expect((await wait({ text: 'Render 1', timeoutMs: 2000 })).matched).toBe('text "Render 1"');
    expect((await failure(wait({ selector: 'h1', timeoutMs: 300 }))).code).toBe('timeout');
    expect((await failure(wait({ text: 'Re-rendering host', timeoutMs: 300 }))).code).toBe('timeout');

    // a wait under way when the host re-renders the iframe goes on in the new one
    await js(`parent.postMessage('rerender-later', '*'); true`);
    expect((await wait({ selector: '[data-render="2"]', timeoutMs: 5000 })).matched).toBe('[data-render="2"]');
    await js(`parent.postMessage('rerender-later', '*'); true`);
    const later = await wait({ text: 'Render 3', timeoutMs: 5000 });
    expect(later.matched).toBe('text "Render 3"');
    expect(later.waitedMs).toBeGreaterThan(200);

    // and when the frame itself navigates, in its next document
    await js(`setTimeout(() => { location.href = 'frame-nav-b.html'; }, 500); true`);
    expect((await wait({ text: 'Step two', timeoutMs: 5000 })).matched).toBe('text "Step two"');
    expect(await js('document.title')).toBe('Step two');
  });

  it('fails with ref_stale when the chosen frame is gone', async () => {
    await chooseInner();
    await removeInner();
    await expectStale(wait({ selector: '#ready', timeoutMs: 2000 }), 'frame_removed', 'selector');
    await expectStale(wait({ text: 'Ready', timeoutMs: 2000 }), 'frame_removed', 'text');
    await h.client.dom.frame.mutate({ main: true });
    expect((await wait({ selector: 'h1', timeoutMs: 2000 })).matched).toBe('h1');
  });
});

describe('snapshot --scope in the chosen frame', () => {
  it('looks for a CSS scope in the frame, and fails with ref_stale when the frame is gone', async () => {
    await chooseInner();
    // the top document has a <p> too ("Renders: 1"): the frame's is the one meant
    expect(await snapshotOf('p')).toContain('Render 1');
    expect(await snapshotOf('#ready')).toContain('button "Ready"');
    const ref = /button "Ready" (f\d+e\d+)/.exec(await snapshotOf('#ready'))?.[1];
    expect(ref).toBeDefined();

    await removeInner();
    for (const scope of ['#ready', 'p', 'h1', 'role=button[name="Ready"]'])
      await expectStale(h.client.snapshot.take.mutate({ scope }), 'frame_removed', scope);
    // a ref of the removed frame is stale, as for any command given it
    const byRef = await failure(h.client.snapshot.take.mutate({ scope: ref! }));
    expect(byRef.code).toBe((await failure(h.client.input.click.mutate({ target: ref! }))).code);
    expect(byRef.code).toBe('ref_stale');
    // the whole page needs no frame
    expect((await h.client.snapshot.take.mutate({})).text).toContain('Re-rendering host');
  });
});

describe('a navigation of the top document while a frame is chosen', () => {
  it("the agent's own goto, reload and back end the choice and their reply says so", async () => {
    await chooseInner();
    const reloaded = await h.client.page.reload.mutate({});
    expect(reloaded.frameCleared).toBe('argus frame "#inner"');
    expect(await js('document.title')).toBe('Re-rendering host');
    // nothing to say when no frame was chosen
    expect((await h.client.page.reload.mutate({})).frameCleared).toBeUndefined();

    await h.client.dom.frame.mutate({ target: '#inner' });
    const gone = await h.client.page.goto.mutate({ url: h.server.urlFor('/frame-nav.html') });
    expect(gone.frameCleared).toBe('argus frame "#inner"');
    expect(await js('document.title')).toBe('Frame host');

    await h.client.dom.frame.mutate({ target: '#inner' });
    expect(await js('document.title')).toBe('Step one');
    const back = await h.client.page.back.mutate({});
    expect(back.frameCleared).toBe('argus frame "#inner"');
    expect(await js('document.title')).toBe('Re-rendering host');
    expect((await h.client.read.text.query({})).text).toContain('Re-rendering host');
  });

  it("the agent's own action that navigates the top document (click, press, mouse) ends the choice and its reply says so", async () => {
    await chooseInner();
    // a target=_top link in the frame: the click's reply says the choice ended, as goto's would
    const clicked = await h.client.input.click.mutate({ target: '#leave' });
    expect(clicked.navigated).toBe(true);
    expect(clicked.frameCleared).toBe('argus frame "#inner"');
    // later commands run in the top document, not failing ref_stale
    expect(await js('document.title')).toBe('Re-rendering host');
    expect((await h.client.read.text.query({})).text).toContain('Renders: 1');

    // Enter on the focused link
    await chooseInner();
    await js("document.getElementById('leave').focus(); true");
    const pressed = await h.client.input.press.mutate({ key: 'Enter' });
    expect(pressed.navigated).toBe(true);
    expect(pressed.frameCleared).toBe('argus frame "#inner"');
    // the key went to the link in the frame (read before the page it left was gone)
    expect(pressed.element).toBe('link "Load the host again"');
    expect(await js('document.title')).toBe('Re-rendering host');

    // a mouse click at the link's place in the tab's viewport
    await chooseInner();
    const [x, y] = await js<[number, number]>(
      "const r = document.getElementById('leave').getBoundingClientRect(); const f = frameElement.getBoundingClientRect(); [f.left + frameElement.clientLeft + r.left + r.width / 2, f.top + frameElement.clientTop + r.top + r.height / 2]",
    );
    const moused = await h.client.input.mouse.mutate({ action: 'click', x, y });
    expect(moused.navigated).toBe(true);
    expect(moused.frameCleared).toBe('argus frame "#inner"');
    expect(await js('document.title')).toBe('Re-rendering host');

    // an action that navigates only the frame, or nothing, keeps the choice and says nothing
    await chooseInner();
    const inFrame = await h.client.input.click.mutate({ target: '#ready' });
    expect(inFrame.frameCleared).toBeUndefined();
    expect(await js('document.title')).toBe('Rendered child');
  });

  it('type in the chosen frame names the field the keys went to, not the iframe; press does too', async () => {
    await h.client.dom.frame.mutate({ main: true });
    await h.client.page.goto.mutate({ url: h.server.urlFor('/frames.html') });
    await h.client.dom.frame.mutate({ target: '#child' });
    const typed = await h.client.input.type.mutate({ target: '#child-input', text: 'abc' });
    expect(typed).toMatchObject({ typedInto: 'textbox "Child input"', editable: true });
    // no target: the keys go where the focus is, the frame's field
    expect(await h.client.input.type.mutate({ text: 'd' })).toMatchObject({
      typedInto: 'textbox "Child input"',
      editable: true,
    });
    expect(await js("document.getElementById('child-input').value")).toBe('abcd');
    expect((await h.client.input.press.mutate({ key: 'End' })).element).toBe('textbox "Child input"');
    // with no frame chosen, the focus is followed down from the iframe to the field too
    await h.client.dom.frame.mutate({ main: true });
    expect((await h.client.input.type.mutate({ text: 'e' })).typedInto).toBe('textbox "Child input"');
  });

  it('with no frame chosen, type and press name the field inside a frame, same site or not, not the iframe', async () => {
    await h.client.dom.frame.mutate({ main: true });
    const child = other.server.urlFor('/frame-child.html');
    await h.client.page.goto.mutate({ url: h.server.urlFor(`/frames.html?xorigin=${encodeURIComponent(child)}`) });
    const snap = (await h.client.snapshot.take.mutate({ interactive: true })).text;
    const [sameSite, crossSite] = snap.split('\n').filter((line) => /textbox "Child input"/.test(line));
    // a frame ref as the target of type
    const typed = await h.client.input.type.mutate({ target: refOf(sameSite!, /Child input/), text: 'ab' });
    expect(typed).toMatchObject({ typedInto: 'textbox "Child input"', editable: true });
    expect(await js("document.getElementById('child').contentDocument.getElementById('child-input').value")).toBe('ab');
    // a click into the field of the frame out of process, then type and press with no target
    await h.client.input.click.mutate({ target: refOf(crossSite!, /Child input/) });
    expect(await h.client.input.type.mutate({ text: 'x' })).toMatchObject({
      typedInto: 'textbox "Child input"',
      editable: true,
    });
    expect((await h.client.input.press.mutate({ key: 'Enter' })).element).toBe('textbox "Child input"');
    await h.client.dom.frame.mutate({ url: 'localhost' });
    expect(await js("document.getElementById('child-input').value")).toBe('x');
    await h.client.dom.frame.mutate({ main: true });
  });

  it('a click in a frame of another site (out of process) that navigates the top document says so too', async () => {
    await chooseInner(true);
    const clicked = await h.client.input.click.mutate({ target: '#leave' });
    expect(clicked.navigated).toBe(true);
    expect(clicked.frameCleared).toBe('argus frame "#inner"');
    // the link is the other site's: the top document is its host page now
    expect(await js('location.origin')).toBe(new URL(other.server.urlFor('/')).origin);
  });

  it('a click on a link in a frame of another site just loaded is never lost', async () => {
    // Chromium routes input to an out-of-process frame only once it has drawn: a press sent before
    // went to the host page, and the click was reported done (about one in thirty rounds here)
    // (the frame chosen and clicked at once: chooseInner's read of its title would give it time to draw)
    const src = encodeURIComponent(other.server.urlFor('/frame-rerender-child.html'));
    for (let round = 0; round < 20; round++) {
      await h.client.dom.frame.mutate({ main: true });
      await h.client.page.goto.mutate({ url: h.server.urlFor(`/frame-rerender.html?src=${src}`) });
      await h.client.dom.frame.mutate({ target: '#inner' });
      const clicked = await h.client.input.click.mutate({ target: '#leave' });
      expect(clicked.navigated, `round ${round}`).toBe(true);
    }
  });

  it('a command left waiting in a frame of another site when the top document navigates fails at once', async () => {
    await chooseInner(true);
    const started = performance.now();
    // the frame asks its host to leave, then waits on a promise that never settles: the host's
    // navigation takes the frame (and its session) away while the evaluation is pending
    const error = await failure(
      h.client.page.eval.mutate({ js: "parent.postMessage('leave', '*'); new Promise(() => {})", timeoutMs: 20_000 }),
    );
    // Chrome never answers a call pending on the frame's session once it is gone: the command
    // waited out its own timeout (20 s) before
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(error.code).toBe('ref_stale');
    expect(error.details).toMatchObject({ reason: 'frame_gone' });
    expect(error.message).toContain('went away during it');
    expect(error.message).toContain('`argus snapshot -i`');
    // the host's navigation goes on: it lands on its page
    await h.client.dom.frame.mutate({ main: true });
    await vi.waitFor(async () => expect(await js('document.title')).toBe('Page A'), { timeout: 10_000 });
  });

  it('after a navigation the page made, the next command that would run in the frame fails saying so', async () => {
    await chooseInner();
    // the page's own script follows a link in the frame that navigates the top document, to a page
    // with an iframe like the chosen one: no reply of the agent's carries it
    const tab = await h.daemon.services.manager.page();
    const epoch = tab.epoch;
    await js("setTimeout(() => document.getElementById('leave').click(), 0); true");
    await vi.waitFor(() => expect(tab.epoch).toBeGreaterThan(epoch), { timeout: 5_000 });
    const message = await expectStale(h.client.read.text.query({}), 'top_navigated', 'text');
    expect(message).toContain('the top document navigated');
    // every command that would run in the frame says so; nothing runs in the top document
    await expectStale(h.client.input.click.mutate({ target: '#ready', timeoutMs: 5000 }), 'top_navigated', 'click');
    await expectStale(h.client.page.eval.mutate({ js: 'document.title' }), 'top_navigated', 'eval');
    await expectStale(wait({ selector: 'h1', timeoutMs: 2000 }), 'top_navigated', 'wait');
    await expectStale(h.client.snapshot.take.mutate({ scope: 'h1' }), 'top_navigated', 'snapshot --scope');
    // choosing again (here: the top document) works
    expect((await h.client.dom.frame.mutate({ main: true })).main).toBe(true);
    expect(await js('document.title')).toBe('Re-rendering host');
    expect((await h.client.read.text.query({})).text).toContain('Renders: 1');
  });
});

describe('commands about a whole document run in the chosen frame', () => {
  it('scroll (by an offset or to a target), scroll-into-view, cleanup and title', async () => {
    await chooseScoped();
    // by an offset: the frame's window scrolls, the top one's does not
    const scrolled = await h.client.page.scroll.mutate({ dy: 300 });
    expect(await js('scrollY')).toBe(300);
    expect(await js('parent.scrollY')).toBe(0);
    expect(scrolled.scrollY).toBe(300);
    // to a target: the offsets reported are its document's
    const toEnd = await h.client.page.scroll.mutate({ target: '#child-end' });
    expect(toEnd.scrollY).toBeGreaterThan(1000);
    expect(toEnd.scrollY).toBe(await js('scrollY'));
    await h.client.page.scroll.mutate({ dy: -5000 });
    expect(await js('scrollY')).toBe(0);
    const intoView = await h.client.input.scrollIntoView.mutate({ target: '#child-end' });
    expect(intoView.scrollY).toBeGreaterThan(1000);
    expect(intoView.scrollY).toBe(await js('scrollY'));

    // cleanup hides the frame's cookie banner and leaves the host's alone
    expect((await h.client.dom.cleanup.mutate({ cookies: true })).cookies).toBe(1);
    expect(await js(`getComputedStyle(document.getElementById('child-consent')).display`)).toBe('none');
    expect(await js(`getComputedStyle(parent.document.getElementById('top-consent')).display`)).toBe('block');

    // the title read is the frame's document's; the tab's URL and title stay the tab's (documented)
    expect((await h.client.read.title.query({})).title).toBe('Scoped child');
    expect((await h.client.page.url.query({})).title).toBe('Frame scope host');
  });

  it("storage and perf read the chosen frame's document, of another site too", async () => {
    await chooseScoped(true);
    const storage = await h.client.inspect.storage.query({});
    expect(storage.origin).toBe(other.server.origin);
    expect(storage.local).toMatchObject({ 'child-key': 'child' });
    expect(storage.local).not.toHaveProperty('host-key');
    const set = await h.client.inspect.storageSet.mutate({ key: 'set-in-frame', value: 'yes' });
    expect(set.origin).toBe(other.server.origin);
    expect(await js(`localStorage.getItem('set-in-frame')`)).toBe('yes');
    expect((await h.client.inspect.perf.query({})).url).toBe(other.server.urlFor('/frame-scope-child.html'));
    expect((await h.client.read.title.query({})).title).toBe('Scoped child');

    // the top document's, once it is the one chosen again
    await h.client.dom.frame.mutate({ main: true });
    const top = await h.client.inspect.storage.query({});
    expect(top.origin).toBe(h.server.origin);
    expect(top.local).toMatchObject({ 'host-key': 'host' });
    expect(top.local).not.toHaveProperty('set-in-frame');
  });

  it("wait --load waits for the chosen frame's document, in or out of process", async () => {
    for (const crossSite of [false, true]) {
      await chooseScoped(crossSite);
      // the frame's next document commits at once; its load waits 1.5 s for an image
      await js(`location.href = 'slow-image.html'; true`);
      await wait({ text: 'Still loading', timeoutMs: 5000 });
      expect(await js('document.readyState')).not.toBe('complete');
      expect((await h.client.page.wait.mutate({ load: true, timeoutMs: 5000 })).matched).toBe('load');
      expect(await js('document.readyState')).toBe('complete');
    }
  });

  it('a capture of the whole top document fails with frame_chosen; the viewport is the tab’s', async () => {
    await chooseScoped();
    // what the tab shows, the frame in it
    expect((await h.client.page.screenshot.mutate({ base64: true })).width).toBeGreaterThan(0);
    const refusals: Array<[string, () => Promise<unknown>]> = [
      ['screenshot --full', () => h.client.page.screenshot.mutate({ full: true, base64: true })],
      ['pdf', () => h.client.visual.pdf.mutate({})],
      ['responsive --full', () => h.client.visual.responsive.mutate({ full: true })],
    ];
    for (const [label, call] of refusals) {
      const error = await failure(call());
      expect(error.code, label).toBe('frame_chosen');
      expect(error.message, label).toContain(`\`argus ${label}\``);
      expect(error.message, label).toContain('`argus frame "#inner"`');
      expect(error.message, label).toContain('`argus frame main`');
      expect(error.details, label).toMatchObject({ chosenWith: { target: '#inner' } });
    }
    await h.client.dom.frame.mutate({ main: true });
    expect((await h.client.page.screenshot.mutate({ full: true, base64: true })).height).toBeGreaterThan(3000);
  });

  it('each fails with ref_stale when the chosen frame is gone', async () => {
    await chooseInner();
    await removeInner();
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['scroll', () => h.client.page.scroll.mutate({ dy: 100 })],
      ['cleanup', () => h.client.dom.cleanup.mutate({})],
      ['title', () => h.client.read.title.query({})],
      ['storage', () => h.client.inspect.storage.query({})],
      ['storage set', () => h.client.inspect.storageSet.mutate({ key: 'k', value: 'v' })],
      ['perf', () => h.client.inspect.perf.query({})],
      ['wait --load', () => h.client.page.wait.mutate({ load: true, timeoutMs: 2000 })],
      ['screenshot --full', () => h.client.page.screenshot.mutate({ full: true, base64: true })],
      ['pdf', () => h.client.visual.pdf.mutate({})],
    ];
    for (const [label, call] of calls) await expectStale(call(), 'frame_removed', label);
    // the host page was not scrolled, nor cleaned up
    await h.client.dom.frame.mutate({ main: true });
    expect(await js('scrollY')).toBe(0);
    expect((await h.client.read.title.query({})).title).toBe('Re-rendering host');
  });
});
