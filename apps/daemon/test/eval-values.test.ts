import { startFixtureServer } from '@argus/test-kit';
import { describe, expect, it } from 'vitest';
import { codeOf, failure, refOf, useHarness } from './harness.js';

const h = useHarness();

/** What `eval` answers for a script, with the fields a reply carries. */
const run = (js: string, extra: { target?: string; maxChars?: number } = {}) =>
  h.client.page.eval.mutate({ js, ...extra });
const valueOf = async (js: string, extra: { target?: string } = {}) => (await run(js, extra)).value;

describe('eval turns any value into JSON in the page', () => {
  it('keeps JSON values exact and a small reply as small as before', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    expect(await run('document.title')).toEqual({ value: 'Sign up', type: 'string' });
    expect(await run('({a: [1, "x", true, null, {b: 2.5}], s: "é\\n\\"😀"})')).toEqual({
      value: { a: [1, 'x', true, null, { b: 2.5 }], s: 'é\n"😀' },
      type: 'object',
    });
    // a "__proto__" key stays a key
    expect(JSON.stringify(await valueOf('JSON.parse(\'{"__proto__": {"x": 1}}\')'))).toBe('{"__proto__":{"x":1}}');
    expect(await run('undefined')).toEqual({ value: null, type: 'undefined' });
    expect(await run('null')).toEqual({ value: null, type: 'null' });
    // as in JSON: an undefined property is left out, an undefined array item is null
    expect(await valueOf('({a: undefined, b: [undefined]})')).toEqual({ b: [null] });
  });

  it('says numbers JSON has no word for, and BigInt, as strings', async () => {
    expect(await run('NaN')).toEqual({ value: 'NaN', type: 'number' });
    expect(await valueOf('Infinity')).toBe('Infinity');
    expect(await valueOf('-Infinity')).toBe('-Infinity');
    expect(await valueOf('-0')).toBe('-0');
    expect(await run('10n')).toEqual({ value: '10n', type: 'bigint' });
    expect(await valueOf('({n: NaN, list: [1, 2n, -0]})')).toEqual({ n: 'NaN', list: [1, '2n', '-0'] });
  });

  it('dates, regular expressions, maps, sets, errors, functions and symbols', async () => {
    expect(await valueOf('new Date(0)')).toBe('1970-01-01T00:00:00.000Z');
    expect(await valueOf('new Date(NaN)')).toBe('Invalid Date');
    expect(await valueOf('/re/g')).toBe('/re/g');
    expect(await valueOf('new Map([[1, 2], ["k", {v: 3}]])')).toEqual([
      [1, 2],
      ['k', { v: 3 }],
    ]);
    expect(await valueOf('new Set([1, "a"])')).toEqual([1, 'a']);
    const error = (await valueOf('new TypeError("x")')) as Record<string, unknown>;
    expect(error).toMatchObject({ name: 'TypeError', message: 'x' });
    expect(error['stack']).toMatch(/TypeError: x/);
    expect(await run('function foo(a, b) { return a + b; }; foo')).toMatchObject({
      value: '[function foo]',
      type: 'function',
    });
    expect(await valueOf('() => 1')).toBe('[function anonymous]');
    expect(await run('Symbol()')).toEqual({ value: 'Symbol()', type: 'symbol' });
    expect(await valueOf('Symbol("s")')).toBe('Symbol(s)');
  });

  it('describes DOM nodes, lists of them, the window and the document', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    expect(await valueOf('document.body')).toBe('<body>');
    expect(await valueOf('document.getElementById("name")')).toBe('<input#name type=text name=name>');
    expect(await valueOf('document.querySelector("h1")')).toBe('<h1> "Sign up"');
    const inputs = (await valueOf('document.querySelectorAll("input")')) as string[];
    expect(inputs).toHaveLength(7);
    expect(inputs[1]).toBe('<input#email type=email name=email>');
    expect(await valueOf('document.forms[0].elements')).toHaveLength(11);
    expect(((await valueOf('document.getElementsByTagName("option")')) as string[])[1]).toBe('<option> "Canada"');
    expect(await valueOf('window')).toBe(`[Window ${h.server.urlFor('/form.html')}]`);
    expect(await valueOf('document')).toBe(`#document ${h.server.urlFor('/form.html')}`);
    expect(await valueOf('({el: document.body.firstChild})')).toEqual({ el: '#text "\\n"' });
    // the element the command targets is `el`; returned as such it is described too
    expect(await run('el', { target: 'h1' })).toEqual({ value: '<h1> "Sign up"', type: 'object' });
    expect((await run('el.tagName', { target: 'h1' })).value).toBe('H1');
  });

  it('marks cycles instead of failing', async () => {
    expect(await valueOf('const o = {a: 1};\no.self = o;\no')).toEqual({ a: 1, self: '[Circular]' });
    expect(await valueOf('const a = [1]; a.push(a); a')).toEqual([1, '[Circular]']);
    // the same object twice is not a cycle
    expect(await valueOf('const x = {v: 1}; [x, x]')).toEqual([{ v: 1 }, { v: 1 }]);
  });

  it('returns the completion value of statements, as the console does', async () => {
    expect(await valueOf('if (true) { 7 } else { 8 }')).toBe(7);
    expect(await valueOf('let s = 0;\nfor (const x of [1, 2, 3]) { s += x }')).toBe(6);
    expect(await valueOf('const a = 2;\nconst b = 3;\na * b')).toBe(6);
    expect(await valueOf('const a = 4;\nif (a > 3) { ({big: a}) } else { null }')).toEqual({ big: 4 });
    expect(await codeOf(run('if (true) { throw new Error("kaboom") }'))).toBe('eval_failed');
    // a completion value is cut by the same rule, a string one too
    expect(await run('let s = "z".repeat(200000);\nif (s) { s }')).toMatchObject({ truncated: true, length: 200_000 });
    expect(await valueOf('let n = 0;\nif (true) { n = NaN }')).toBe('NaN');
    expect(await valueOf('const m = new Map([[1, 2]]);\nif (m) { m }')).toEqual([[1, 2]]);
    // declarations stay the script's own: running it twice does not clash
    expect(await valueOf('const a = 5;\nif (a) { a }')).toBe(5);
    expect(await valueOf('const a = 5;\nif (a) { a }')).toBe(5);
  });

  it('cuts a large value in the page, says so, and a larger maxChars lets more through', async () => {
    const cut = await run('"x".repeat(1000000)');
    expect(cut.truncated).toBe(true);
    expect(cut.length).toBe(1_000_000);
    expect(typeof cut.value === 'string' && cut.value.length).toBeLessThanOrEqual(100_000);
    expect(typeof cut.value === 'string' && cut.value.length).toBeGreaterThan(99_000);
    const whole = await run('"x".repeat(1000000)', { maxChars: 2_000_000 });
    expect(whole).toEqual({ value: 'x'.repeat(1_000_000), type: 'string' });
    const list = await run('Array.from({length: 100000}, (_, i) => i)', { maxChars: 1000 });
    expect(list.truncated).toBe(true);
    const items = list.value as unknown[];
    expect(items.length).toBeLessThan(300);
    expect(items.at(-1)).toMatch(/^…\(\+\d+ more items\)$/);
    expect(JSON.stringify(items).length).toBeLessThan(1_100);
    const nested = (await run('({s: "y".repeat(5000)})', { maxChars: 1000 })).value as { s: string };
    expect(nested.s).toMatch(/^y+…\(\+\d+ chars\)$/);
  });

  it('a 30 MB string never crosses CDP: the reply is quick and the tab stays responsive', async () => {
    const started = performance.now();
    const cut = await run('"x".repeat(30000000)');
    expect(cut).toMatchObject({ truncated: true, length: 30_000_000, type: 'string' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await valueOf('1 + 1')).toBe(2);
  });

  it("keeps its serializer out of the page's sight, and finds it again after a navigation and in a frame", async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    const globals = 'Object.getOwnPropertyNames(window).length + Object.getOwnPropertySymbols(window).length';
    const before = await valueOf(globals);
    expect(await valueOf('({a: [1, 2], d: new Date(0)})')).toEqual({ a: [1, 2], d: '1970-01-01T00:00:00.000Z' });
    expect(await valueOf('({again: true})')).toEqual({ again: true });
    // nothing the page could see or replace: no new global, and a page that swaps JSON and Array keeps its answers
    expect(await valueOf(globals)).toBe(before);
    await run('window.JSON = {stringify: () => "forged"}; Array.prototype.at = () => "forged"; 1');
    expect(await valueOf('[{x: "y"}]')).toEqual([{ x: 'y' }]);
    // the next document has a new context: the handle held for the old one is noticed and replaced
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    expect(await valueOf('({title: document.title})')).toEqual({ title: 'Page A' });
    expect(await valueOf('const m = new Set([1]);\nif (m) { m }')).toEqual([1]);
    // a frame's own context, then the main one again
    await h.client.page.goto.mutate({ url: h.server.urlFor('/frames.html') });
    expect(await valueOf('({main: location.pathname})')).toEqual({ main: '/frames.html' });
    await h.client.dom.frame.mutate({ target: '#child' });
    expect(await valueOf('({frame: location.pathname})')).toEqual({ frame: '/frame-child.html' });
    await h.client.dom.frame.mutate({ main: true });
    expect(await valueOf('({main: location.pathname})')).toEqual({ main: '/frames.html' });
  });

  it('runs statements with their value cut in the page, their var kept local, also under a strict CSP', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/csp-strict.html') });
    // the policy holds for the page's own code (a string timer is an eval, refused), not for Argus's
    await run('setTimeout("window.argusCspProbe = 1", 0); 1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await valueOf('typeof window.argusCspProbe')).toBe('undefined');
    expect(await valueOf('if (true) { 7 } else { 8 }')).toBe(7);
    // a statement's string value over the budget is cut before it leaves the page
    const started = performance.now();
    const cut = await run('let s = "q".repeat(30000000);\nif (s) { s }', { maxChars: 1000 });
    expect(cut).toMatchObject({ truncated: true, length: 30_000_000, type: 'string' });
    expect((cut.value as string).length).toBeLessThanOrEqual(1000);
    expect(performance.now() - started).toBeLessThan(5_000);
    // `var` in statement code is the script's own, as in the function form, not a new global of the page
    expect(await valueOf('var argusLeak = 1;\nfor (const x of [1]) { argusLeak += x }')).toBe(2);
    expect(await valueOf('typeof argusLeak')).toBe('undefined');
  });
});

describe("eval's code sees the page's globals, whatever their names", () => {
  // every name Argus's wrappers bind or used to bind around the code: none may hide the page's own
  const NAMES = ['v', 't', 'el', 'run', 'maxChars', '__argusScript', 'arguments'];

  it('in the function form, the script form and with an element', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    const define = `${NAMES.map((name, index) => `window[${JSON.stringify(name)}] = ${index + 1}`).join('; ')}; 1`;
    // defined by a plain eval, in the page's main world: code given an element runs there too
    await run(define);
    for (const [index, name] of NAMES.entries()) {
      // an expression, statements ending in one, statements run as a script
      expect(await valueOf(name), name).toBe(index + 1);
      expect(await valueOf(`const x = 0;\n${name} + x`), name).toBe(index + 1);
      expect(await valueOf(`if (true) { ${name} }`), name).toBe(index + 1);
      // with an element, `el` is the element (the documented exception); every other name is the global
      if (name !== 'el') expect(await valueOf(name, { target: '#name' }), name).toBe(index + 1);
    }
    expect(await valueOf('el.id', { target: '#name' })).toBe('name');
  });
});

describe('eval with a target', () => {
  it("runs in the page's main world and calls a function with the element", async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    await run("window.appState = { user: 'ada' }; document.getElementById('name').pageData = 7; 1");
    const { text } = await h.client.snapshot.take.mutate({});
    const ref = refOf(text, /textbox "Name"/);
    // the page's globals and its own properties on the element, as a plain eval sees them
    expect(await valueOf('window.appState', { target: ref })).toEqual({ user: 'ada' });
    expect(await valueOf('appState.user', { target: '#name' })).toBe('ada');
    expect(await valueOf('el.pageData', { target: ref })).toBe(7);
    // a function is called with the element
    expect(await run('el => el.id', { target: ref })).toEqual({ value: 'name', type: 'string' });
    expect(await valueOf('async (node) => node.tagName', { target: ref })).toBe('INPUT');
    expect(await valueOf('({ id, pageData }) => id + pageData', { target: '#name' })).toBe('name7');
    expect(await valueOf('function (node) { return node === document.activeElement; }', { target: ref })).toBe(false);
  });

  it("an element of a cross-origin frame: that frame's main world", async () => {
    const other = await startFixtureServer({
      hostname: 'localhost',
      pages: { '/child': '<button id="child-button">Child</button><script>window.childState = "in frame"</script>' },
    });
    try {
      const url = `${h.server.urlFor('/frames.html')}?xorigin=${encodeURIComponent(other.urlFor('/child'))}`;
      await h.client.page.goto.mutate({ url });
      const ref = refOf((await h.client.snapshot.take.mutate({})).text, /button "Child"/);
      expect(await valueOf('el => [el.id, window.childState, location.origin]', { target: ref })).toEqual([
        'child-button',
        'in frame',
        other.origin,
      ]);
    } finally {
      await other.close();
    }
  });
});

describe("eval's timeoutMs bounds the whole script", () => {
  it('a promise that never settles fails typed at timeoutMs, not at the CDP deadline (60 s)', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    for (const js of ['new Promise(() => {})', 'await new Promise(() => {}); 1']) {
      const started = Date.now();
      const error = await failure(h.client.page.eval.mutate({ js, timeoutMs: 1_500 }));
      expect(error.code).toBe('timeout');
      expect(error.details).toMatchObject({ timeoutMs: 1_500, reason: 'promise_pending' });
      expect(error.message).toMatch(/did not finish within 1500 ms/);
      expect(Date.now() - started).toBeLessThan(15_000);
    }
    // the tab goes on as before
    expect(await valueOf('document.title')).toBe('Sign up');
  });

  it('a loop that never ends is stopped at timeoutMs and said so, not "Internal error"', async () => {
    const error = await failure(h.client.page.eval.mutate({ js: 'while (true) {}', timeoutMs: 1_000 }));
    expect(error.code).toBe('timeout');
    expect(error.details).toMatchObject({ reason: 'script_running' });
    expect(await valueOf('1 + 1')).toBe(2);
  });
});
