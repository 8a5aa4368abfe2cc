import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { z } from 'zod';
import * as pageFns from '../src/page/index.js';
import { DESCRIBE_ELEMENT, deepHit } from '../src/page/actionability.js';
import { FINISH_FILL, PREPARE_FILL, PRESET_LINES, SET_NATIVE_VALUE, textDigest } from '../src/page/fill.js';
import { pageFunction, pageFunctionWith } from '../src/page/page-function.js';
import { SnapshotEngine } from '../src/index.js';
import { html, openPage, startBrowser, type TestBrowser } from './harness.js';

const { pageExpression, pageResult } = pageFns;
type AnyPageFunction = pageFns.PageFunction<never, never[], unknown>;

const PAGE = html(
  `
<nav><a href="/a">First</a> <a href="/b" title="Second link"></a></nav>
<div id="host"></div>
<form name="f" action="/send"><label>Your name <input id="name" name="name" value="Ada"></label>
  <label><input id="agree" type="checkbox" checked> Agree</label><input id="file" type="file"><button>Send</button></form>
<img id="pic" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="dot">
<div id="ad" class="ads">ad</div><div id="bar" style="position:fixed;top:0">bar</div>
<iframe id="frame" srcdoc="<p>in</p>"></iframe>
<script>document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<a href="/shadow">Shadow</a>';</script>`,
  '<meta property="og:title" content="T"><script type="application/ld+json">{"@type":"Thing"}</script>',
);

/** JSON-LD as real sites ship it: wrapped in CDATA markers, some inside comments (the Guardian). */
const CDATA = html(
  '<p>data</p>',
  [
    '<script type="application/ld+json">//<![CDATA[\n{"@type":"NewsArticle","headline":"Slashed"}\n//]]></script>',
    '<script type="application/ld+json"><![CDATA[ {"@type":"Bare"} ]]></script>',
    '<script type="application/ld+json">/*<![CDATA[*/ {"@type":"Starred","text":"a <![CDATA[x]]> b"} /*]]>*/</script>',
    '<script type="application/ld+json">\n  // <![CDATA[\n  [{"@type":"Listed"}]\n  // ]]>\n</script>',
    '<script type="application/ld+json"><![CDATA[ {not json ]]></script>',
  ].join(''),
);

let tb: TestBrowser;
let served: FixtureServer;
let page: Page;

beforeAll(async () => {
  [tb, served] = await Promise.all([startBrowser(), startFixtureServer({ pages: { '/fns': PAGE, '/cdata': CDATA } })]);
  page = await openPage(tb.browser, `${served.origin}/fns`);
});
afterAll(async () => {
  await tb?.close();
  await served?.close();
});

/** Runs a page function as the daemon ships it: its source text only, `this` bound to the element or nothing. */
async function run(fn: AnyPageFunction, args: unknown[], selector?: string): Promise<unknown> {
  if (!selector) return pageResult(fn, await page.evaluate(pageExpression(fn, 'undefined', args as never)));
  const { result } = await page.session.send('Runtime.evaluate', {
    expression: `document.querySelector('${selector}')`,
  });
  return pageResult(fn, await page.callOn(result.objectId!, fn.source, args));
}

describe('page functions (packages/snapshot/src/page)', () => {
  it('checks what a page hands back: a value that does not fit the schema is an internal error', () => {
    const fn = pageFunction('sample', z.object({ n: z.number() }), function (this: unknown) {
      return { n: 1 };
    });
    expect(pageResult(fn, { n: 2 })).toEqual({ n: 2 });
    let error: unknown;
    try {
      pageResult(fn, { n: 'two' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ArgusError);
    expect((error as ArgusError).code).toBe('internal');
    expect((error as ArgusError).message).toMatch(/sample returned an unexpected value at n/);
  });

  it('ships shared helpers with the function that uses them, and nothing else from its module', () => {
    const twice = (n: number) => n * 2;
    const fn = pageFunctionWith({ twice })('twice', z.number(), function (this: unknown, kit, n: number) {
      return kit.twice(n);
    });
    // the source is all the page gets: it runs with no module scope at all
    expect(new Function(`return (${fn.source}).call(undefined, 21);`)()).toBe(42);
  });

  it('every exported page function runs from its source alone and returns what its schema says', async () => {
    const engine = new SnapshotEngine(page);
    await engine.snapshot({ interactive: true }); // forms reads names and ids from the walker
    const cases: Array<[AnyPageFunction, unknown[], string?]> = [
      [pageFns.LINKS as AnyPageFunction, [100, ''], 'body'],
      [pageFns.MEDIA as AnyPageFunction, [{ images: true, videos: true, audio: true }, 10], 'body'],
      [pageFns.DATA as AnyPageFunction, [{ jsonld: true, og: true, meta: true, twitter: true }]],
      [pageFns.PERF as AnyPageFunction, []],
      [pageFns.ELEMENT_STATE as AnyPageFunction, ['checked'], '#agree'],
      [pageFns.CHECK_STATE as AnyPageFunction, [], '#agree'],
      [pageFns.COMPUTED_STYLE as AnyPageFunction, ['display'], '#name'],
      [pageFns.ATTRIBUTES as AnyPageFunction, [], '#name'],
      [pageFns.IS_FRAME as AnyPageFunction, [], '#frame'],
      [pageFns.FRAME_OWNER as AnyPageFunction, [], '#frame'],
      [pageFns.UPLOAD_TARGET as AnyPageFunction, [], '#file'],
      [pageFns.SET_STYLE as AnyPageFunction, ['color', 'red', false], '#name'],
      [pageFns.RESTORE_STYLE as AnyPageFunction, ['color', '', ''], '#name'],
      [pageFns.STORAGE_WRITE as AnyPageFunction, ['local', 'k', 'v']],
      [pageFns.STORAGE_READ as AnyPageFunction, ['', 100]],
      [pageFns.ORIGIN_STORAGE as AnyPageFunction, []],
      [pageFns.WRITE_LOCAL_STORAGE as AnyPageFunction, [{ k2: 'v2' }]],
      [pageFns.SCROLL_BY as AnyPageFunction, [0, 10]],
      [pageFns.SCROLL_POSITION as AnyPageFunction, []],
      [pageFns.VIEWPORT_SIZE as AnyPageFunction, []],
      [pageFns.NEXT_FRAME as AnyPageFunction, []],
      [pageFns.DRAGGABLE_AT as AnyPageFunction, [5, 5]],
      [pageFns.DRAGGABLE_NODE as AnyPageFunction, [], '#name'],
      [pageFns.BODY_TEXT as AnyPageFunction, []],
      [pageFns.DOCUMENT_TITLE as AnyPageFunction, []],
      [pageFns.READY_STATE as AnyPageFunction, []],
      [pageFns.VALID_SELECTOR as AnyPageFunction, ['a[[']],
      [pageFns.WAIT_UNTIL as AnyPageFunction, [{ kind: 'text', text: 'Agree' }, 1000]],
      [pageFns.CLEANUP as AnyPageFunction, [{ ads: true, cookies: true, sticky: true }]],
    ];
    const results = new Map<string, unknown>();
    for (const [fn, args, selector] of cases) results.set(fn.name, await run(fn, args, selector));
    expect(results.get('links')).toMatchObject({
      total: 3,
      links: [{ text: 'First' }, { text: 'Second link' }, { text: 'Shadow' }],
    });
    expect(results.get('data')).toMatchObject({ og: { 'og:title': 'T' }, jsonld: [{ '@type': 'Thing' }] });
    expect(results.get('checkState')).toMatchObject({ kind: 'checkbox', checked: true, hasLabel: true });
    expect(results.get('frameOwner')).toEqual({ tag: 'iframe', id: 'frame', name: '', src: '', index: 0 });
    expect(results.get('uploadTarget')).toEqual({ kind: 'file', multiple: false, disabled: false });
    expect(results.get('storageRead')).toMatchObject({ local: { k: 'v' } });
    expect(results.get('validSelector')).toBe(false);
    expect(results.get('draggableNode')).toBe(false);
    expect(results.get('documentTitle')).toBe('fixture');
    expect(results.get('waitUntil')).toBe(true);
    expect(results.get('cleanup')).toEqual({ ads: 1, cookies: 0, sticky: 1 });
    // forms runs in the isolated world, where the walker lives
    const contextId = await page.frames.isolatedWorld(page.mainFrameId);
    const forms = pageResult(
      pageFns.FORMS,
      await page.evaluate(pageExpression(pageFns.FORMS, 'document', []), { contextId }),
    );
    expect(forms.forms[0]!.fields.map((field) => field.label)).toEqual(['Your name', 'Agree', '', 'Send']);
    expect(forms.forms[0]!.fields[0]!.walkerId).toEqual(expect.any(Number));
  });

  it('the fill and describe functions run from their source alone, their kits shipped with them', async () => {
    const expected = { length: 'Grace'.length, digest: textDigest('Grace') };
    expect(await run(PREPARE_FILL as AnyPageFunction, [], '#name')).toEqual({ kind: 'input', type: 'text' });
    expect(await run(SET_NATIVE_VALUE as AnyPageFunction, ['Grace', 200, expected], '#name')).toEqual({
      value: 'Grace',
      length: 5,
      truncated: false,
      matches: true,
    });
    // the echo is cut in the page; whether the whole value is the text given is still said
    expect(await run(FINISH_FILL as AnyPageFunction, [3, expected], '#name')).toEqual({
      value: 'Gra',
      length: 5,
      truncated: true,
      matches: true,
    });
    expect(await run(PRESET_LINES as AnyPageFunction, ['a\nb'], '#name')).toBe(false);
    // what covers an element is named the same way whichever frame it is in: with its text
    expect(await run(DESCRIBE_ELEMENT as AnyPageFunction, [], '#ad')).toBe('div#ad.ads ("ad")');
  });

  it('the hit test looks through an overlay of Argus (the annotate picker glass) and into open shadow roots', async () => {
    const probe = pageFunctionWith({ deepHit })('probeHit', z.string(), function (this: unknown, kit) {
      const link = (
        document.getElementById('host')!.shadowRoot!.querySelector('a') as HTMLElement
      ).getBoundingClientRect();
      const glass = document.createElement('div');
      glass.id = 'glass';
      glass.setAttribute('style', 'position: fixed; inset: 0; z-index: 2147483647;');
      document.documentElement.append(glass);
      const x = link.left + link.width / 2;
      const y = link.top + link.height / 2;
      const seen = [kit.deepHit(x, y), kit.deepHit(x, y, glass)].map((el) => (el ? el.id || el.tagName : 'none'));
      glass.remove();
      return seen.join(' ');
    });
    // without `skip` the glass itself; with it, the link inside the shadow root below it (the picker
    // once looked through the glass only at the top: a shadow root's elementFromPoint reached the glass again)
    expect(await run(probe as AnyPageFunction, [])).toBe('glass A');
  });

  it('data reads JSON-LD wrapped in CDATA markers and comments, and still reports a block that is not JSON', async () => {
    const cdataPage = await openPage(tb.browser, `${served.origin}/cdata`);
    try {
      const read = pageResult(
        pageFns.DATA,
        await cdataPage.evaluate(
          pageExpression(pageFns.DATA, 'undefined', [{ jsonld: true, og: false, meta: false, twitter: false }]),
        ),
      );
      expect(read.jsonld).toEqual([
        { '@type': 'NewsArticle', headline: 'Slashed' },
        { '@type': 'Bare' },
        { '@type': 'Starred', text: 'a <![CDATA[x]]> b' },
        [{ '@type': 'Listed' }],
        { error: expect.stringMatching(/JSON/), raw: '<![CDATA[ {not json ]]>' },
      ]);
    } finally {
      await tb.browser.closePage(cdataPage.id);
    }
  });
});
