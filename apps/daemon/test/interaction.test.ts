import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf, refOf, useHarness, useOtherSite } from './harness.js';

const h = useHarness();
const other = useOtherSite();

const js = async <T>(code: string): Promise<T> => (await h.client.page.eval.mutate({ js: code })).value as T;

describe('check / uncheck', () => {
  beforeAll(async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/interaction.html') });
  });

  it('checks a native checkbox once and is idempotent', async () => {
    const first = await h.client.input.check.mutate({ target: '#terms' });
    expect(first).toMatchObject({ checked: true, changed: true });
    const again = await h.client.input.check.mutate({ target: '#terms' });
    expect(again).toMatchObject({ checked: true, changed: false });
    expect(await js('document.getElementById("terms").checked')).toBe(true);
    const off = await h.client.input.uncheck.mutate({ target: '#terms' });
    expect(off).toMatchObject({ checked: false, changed: true });
    expect(await js('document.getElementById("terms").checked')).toBe(false);
  });

  it('works by ref, for a visually hidden checkbox behind its label, and for ARIA checkbox / switch', async () => {
    const snap = await h.client.snapshot.take.mutate({ interactive: true });
    const terms = refOf(snap.text, /checkbox "Accept terms"/);
    expect((await h.client.input.check.mutate({ target: terms })).checked).toBe(true);
    expect((await h.client.input.check.mutate({ target: '#news' })).changed).toBe(true);
    expect(await js('document.getElementById("news").checked')).toBe(true);
    expect((await h.client.input.check.mutate({ target: '#aria' })).changed).toBe(true);
    expect(await js('document.getElementById("aria").getAttribute("aria-checked")')).toBe('true');
    expect((await h.client.input.uncheck.mutate({ target: '#switch' })).changed).toBe(true);
    expect(await js('document.getElementById("switch").getAttribute("aria-checked")')).toBe('false');
  });

  it('checks a radio, refuses to uncheck one, and reports a control the page keeps from changing', async () => {
    expect((await h.client.input.check.mutate({ target: '#large' })).changed).toBe(true);
    expect(await js('document.querySelector("input[name=size]:checked").value')).toBe('l');
    expect(await codeOf(h.client.input.uncheck.mutate({ target: '#large' }))).toBe('invalid_input');
    expect(await codeOf(h.client.input.check.mutate({ target: '#locked' }))).toBe('element_not_interactable');
    expect(await codeOf(h.client.input.check.mutate({ target: 'h1' }))).toBe('invalid_input');
  });
});

describe('keyboard combos', () => {
  it('press names the element the keys went to: the one focused as they went, or the document body', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/interaction.html') });
    await h.client.input.click.mutate({ target: '#second' });
    // read as the keys went, not after: the Tab moved the focus on to the next field
    const tabbed = await h.client.input.press.mutate({ key: 'Tab' });
    expect(tabbed.element).toMatch(/^textbox "second"/);
    expect(await js('document.activeElement.id')).not.toBe('second');
    await js('document.activeElement.blur(); true');
    const lost = await h.client.input.press.mutate({ key: 'Enter' });
    expect(lost.element).toBeNull();
  });

  it('press Shift+Tab moves focus back; Control+a selects the field', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/interaction.html') });
    await h.client.input.click.mutate({ target: '#second' });
    await h.client.input.press.mutate({ key: 'Shift+Tab' });
    expect(await js('document.activeElement.id')).toBe('first');
    await h.client.input.click.mutate({ target: '#second' });
    await h.client.input.press.mutate({ key: 'Control+a' });
    expect(
      await js(
        '(() => { const el = document.getElementById("second"); return [el.selectionStart, el.selectionEnd]; })()',
      ),
    ).toEqual([0, 9]);
  });
});

describe('mouse', () => {
  it('dispatches move / down / up / click at coordinates and tracks the held button', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/interaction.html') });
    await h.client.page.eval.mutate({ js: 'window.mouseLog = []' });
    await h.client.input.mouse.mutate({ action: 'move', x: 40, y: 240 });
    const down = await h.client.input.mouse.mutate({ action: 'down' });
    expect(down).toMatchObject({ x: 40, y: 240, pressed: ['left'] });
    const moved = await h.client.input.mouse.mutate({ action: 'move', x: 60, y: 250 });
    expect(moved.pressed).toEqual(['left']);
    const up = await h.client.input.mouse.mutate({ action: 'up' });
    expect(up.pressed).toEqual([]);
    await h.client.input.mouse.mutate({ action: 'click', x: 30, y: 230, button: 'right' });
    const log = await js<string[]>('window.mouseLog');
    expect(log).toEqual([
      'mousedown:0:20,20',
      'drag-move:1',
      'mouseup:0:40,30',
      'click:0:40,30',
      'mousedown:2:10,10',
      'contextmenu:2:10,10',
      'mouseup:2:10,10',
    ]);
  });

  it('refuses move without coordinates', async () => {
    expect(await codeOf(h.client.input.mouse.mutate({ action: 'move' }))).toBe('invalid_input');
    expect(await codeOf(h.client.input.mouse.mutate({ action: 'click', x: 5 }))).toBe('invalid_input');
  });
});

describe('drag', () => {
  beforeAll(async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/drag.html') });
  });

  it('drags with pointer events to coordinates', async () => {
    const result = await h.client.input.drag.mutate({ from: '#knob', to: '240,160' });
    expect(result.mode).toBe('pointer');
    expect(result.from).toEqual({ x: 40, y: 80 });
    expect(await js('document.getElementById("knob-pos").textContent')).toBe('220,140');
  });

  it('drags an HTML5 draggable onto a drop zone (intercepted native drag)', async () => {
    const snap = await h.client.snapshot.take.mutate({ interactive: true });
    const result = await h.client.input.drag.mutate({ from: refOf(snap.text, /button "Card"/), to: '#done' });
    expect(result.mode).toBe('html5');
    expect(await js('document.getElementById("dnd").textContent')).toBe('dropped card-1');
    expect(await js('document.getElementById("card").parentElement.id')).toBe('done');
  });

  it('drags an HTML5 draggable onto a drop zone inside an open shadow root', async () => {
    // the press point's hit test looks into the shadow root: the card, not its host, starts the drag
    const result = await h.client.input.drag.mutate({
      from: 'role=button[name="Shadow card"]',
      to: 'text=Shadow drop zone',
    });
    expect(await js('document.querySelector("drag-board").shadowRoot.getElementById("s-dnd").textContent')).toBe(
      'dropped shadow-card',
    );
    expect(result.mode).toBe('html5');
  });

  it('reports a missing element', async () => {
    expect(await codeOf(h.client.input.drag.mutate({ from: '#nope', to: '10,10', timeoutMs: 200 }))).toBe(
      'element_not_found',
    );
  });

  // the press point's hit test in the top document finds the <iframe>: the draggable is in its document
  for (const [where, src] of [
    ['in an iframe of the same site', () => ''],
    [
      'in an iframe of another site (out of process)',
      () => `?src=${encodeURIComponent(other.server.urlFor('/drag.html'))}`,
    ],
  ] as const) {
    it(`drags an HTML5 draggable onto a drop zone ${where}`, async () => {
      await h.client.page.goto.mutate({ url: h.server.urlFor(`/drag-frame.html${src()}`) });
      await h.client.dom.frame.mutate({ target: '#board' });
      try {
        const result = await h.client.input.drag.mutate({ from: '#card', to: '#done' });
        expect(await js('document.getElementById("dnd").textContent')).toBe('dropped card-1');
        expect(await js('document.getElementById("card").parentElement.id')).toBe('done');
        expect(result.mode).toBe('html5');
      } finally {
        await h.client.dom.frame.mutate({ main: true });
      }
    });
  }
});

describe('scroll-into-view', () => {
  it('scrolls a far element into view', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/interaction.html') });
    const result = await h.client.input.scrollIntoView.mutate({ target: '#far' });
    expect(result.scrollY).toBeGreaterThan(1500);
    expect(
      await js(
        '(() => { const r = document.getElementById("far").getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()',
      ),
    ).toBe(true);
  });
});

describe('upload', () => {
  let a: string;
  let b: string;
  beforeAll(async () => {
    mkdirSync(join(h.workspace, 'files'), { recursive: true });
    a = join(h.workspace, 'files', 'a.txt');
    b = join(h.workspace, 'files', 'b.txt');
    writeFileSync(a, 'hello');
    writeFileSync(b, 'second file');
    await h.client.page.goto.mutate({ url: h.server.urlFor('/upload.html') });
  });

  it('sets files on a file input (relative paths resolve in the workspace)', async () => {
    const result = await h.client.files.upload.mutate({ target: '#files', files: ['files/a.txt', b] });
    expect(result).toMatchObject({ via: 'input', files: [a, b] });
    expect(await js('document.getElementById("files-result").textContent')).toBe('a.txt:5,b.txt:11');
  });

  it('answers the file chooser a button opens', async () => {
    const result = await h.client.files.upload.mutate({ target: '#pick', files: [a] });
    expect(result.via).toBe('chooser');
    expect(await js('document.getElementById("avatar-result").textContent')).toBe('a.txt:5');
  });

  it('refuses paths outside the workspace and missing files', async () => {
    expect(await codeOf(h.client.files.upload.mutate({ target: '#files', files: ['/etc/hostname'] }))).toBe(
      'path_forbidden',
    );
    expect(await codeOf(h.client.files.upload.mutate({ target: '#files', files: ['../../etc/passwd'] }))).toBe(
      'path_forbidden',
    );
    expect(await codeOf(h.client.files.upload.mutate({ target: '#files', files: ['files/missing.txt'] }))).toBe(
      'invalid_input',
    );
    expect(await codeOf(h.client.files.upload.mutate({ target: 'h1', files: [a], timeoutMs: 500 }))).toBe(
      'element_not_interactable',
    );
  });

  it('refuses a text field at once, naming it, instead of waiting for a chooser that never opens', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    for (const target of ['#email', '#bio', '#country', '#terms']) {
      const started = performance.now();
      const error = await h.client.files.upload.mutate({ target, files: [a] }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('not a file input') });
      // the default wait for a chooser is 5 s; a field is refused before any wait
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    await h.client.page.goto.mutate({ url: h.server.urlFor('/upload.html') });
  });
});

describe('downloads', () => {
  it('downloads a URL and saves it with its size', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/upload.html') });
    const result = await h.client.files.download.mutate({ source: h.server.urlFor('/download/notes.txt') });
    expect(result).toMatchObject({ state: 'completed', filename: 'notes.txt' });
    expect(result.path).toBe(join(h.workspace, '.argus', 'downloads', 'notes.txt'));
    const body = readFileSync(result.path as string, 'utf8');
    expect(body).toContain('Argus fixture download: notes.txt');
    expect(result.bytes).toBe(Buffer.byteLength(body));
  });

  it('downloads by clicking a link and saves to a chosen path', async () => {
    const target = join(tmpdir(), `argus-dl-${process.pid}.txt`);
    const result = await h.client.files.download.mutate({ source: '#dl', path: target });
    expect(result.path).toBe(target);
    expect(readFileSync(target, 'utf8')).toContain('report.txt');
    expect(await codeOf(h.client.files.download.mutate({ source: '#dl', path: '/etc/argus.txt' }))).toBe(
      'path_forbidden',
    );
  });

  it('a download by clicking an element that never comes fails typed, its own wait handled', async () => {
    // the click waits for the element as long as the download may take: both end together
    expect(await codeOf(h.client.files.download.mutate({ source: '#no-such-link', timeoutMs: 300 }))).toBe(
      'element_not_found',
    );
  });

  it('wait --download returns the download a click started; downloads lists them', async () => {
    const clicked = await h.client.input.click.mutate({ target: '#dl' });
    expect(clicked.navigated).toBe(false);
    const waited = await h.client.page.wait.mutate({ download: true });
    expect(waited.matched).toMatch(/report.*\.txt \(\d+ bytes\)/);
    const list = await h.client.files.downloads.query({});
    expect(list.downloads.length).toBeGreaterThanOrEqual(3);
    expect(list.downloads.every((item) => item.state === 'completed')).toBe(true);
    expect(await codeOf(h.client.page.wait.mutate({ download: true, timeoutMs: 200 }))).toBe('timeout');
  });
});
