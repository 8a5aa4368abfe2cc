import { type RenderContext, renderCommand } from '@argus/protocol/render';
import { beforeEach, describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();

const js = async <T>(code: string): Promise<T> => (await h.client.page.eval.mutate({ js: code })).value as T;

/** The sentence repeated to `length` characters. */
const longText = (length: number) =>
  'The quick brown fox jumps over the lazy dog. '.repeat(length / 40).slice(0, length);

describe('long text into fields', () => {
  beforeEach(async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
  });

  it('fill echoes the first 200 characters of a long value, with its length and whether it is all the text', async () => {
    const text = longText(20_000);
    const result = await h.client.input.fill.mutate({ target: '#bio', text });
    expect(result).toMatchObject({ value: text.slice(0, 200), length: 20_000, truncated: true, matches: true });
    const context: RenderContext = { surface: 'cli', input: { target: '#bio', text }, label: (n) => n, hint: (n) => n };
    const line = renderCommand('input.fill', result, context);
    expect(line).toMatch(/^fill textbox "About you".* = "The quick brown fox/);
    expect(line).toContain('"… (20000 characters, the first 200 shown; the field holds exactly the text given)');
    expect(line.length).toBeLessThan(400);
    // the field holds all of it
    expect(await js('document.getElementById("bio").value.length')).toBe(20_000);
    expect(await js('document.getElementById("bio").value.slice(-45)')).toBe(text.slice(-45));
    // a short value is echoed whole, with nothing added
    const short = await h.client.input.fill.mutate({ target: '#name', text: 'Ada' });
    expect(short.value).toBe('Ada');
    expect(short).not.toHaveProperty('truncated');
    expect(short).not.toHaveProperty('length');
  });

  it('says when a long value is not the text given (the field cut it), and keeps a password masked', async () => {
    await js('document.getElementById("name").maxLength = 1000');
    const cut = await h.client.input.fill.mutate({ target: '#name', text: 'x'.repeat(5_000) });
    expect(cut).toMatchObject({ value: 'x'.repeat(200), length: 1000, truncated: true, matches: false });
    const context: RenderContext = { surface: 'cli', input: {}, label: (n) => n, hint: (n) => n };
    expect(renderCommand('input.fill', cut, context)).toContain(
      '(1000 characters, the first 200 shown; differs from the text given)',
    );
    const secret = await h.client.input.fill.mutate({ target: '#password', text: 's3cret'.repeat(100) });
    expect(secret.value).toBe('••••');
    expect(secret).not.toHaveProperty('length');
    expect(await js('document.getElementById("password").value.length')).toBe(600);
  });

  it('fill puts 50,000 characters of many lines in a textarea in one go: the page sees one trusted beforeinput, a few inputs, one change', async () => {
    await js(`(() => {
      window.events = [];
      for (const type of ['beforeinput', 'input', 'change'])
        document.getElementById('bio').addEventListener(type, (e) => events.push({ type, trusted: e.isTrusted, length: e.target.value.length }));
    })()`);
    const line = 'Dear team, the report (v2) is ready: 42% done!\n';
    const text = line.repeat(Math.ceil(50_000 / line.length)).slice(0, 50_000);
    const started = Date.now();
    const result = await h.client.input.fill.mutate({ target: '#bio', text });
    const took = Date.now() - started;
    expect(result).toMatchObject({ value: text.slice(0, 200), length: 50_000, truncated: true, matches: true });
    expect(await js('document.getElementById("bio").value === ' + JSON.stringify(text))).toBe(true);
    const events = await js<{ type: string; trusted: boolean; length: number }[]>('events');
    // Input.insertText of the whole text fired an input per line break and per line (2,128 here) and
    // took seconds of the page's main thread (page_unresponsive under load)
    expect(events.length).toBeLessThan(10);
    expect(events[0]).toMatchObject({ type: 'beforeinput', trusted: true });
    expect(events.filter((e) => e.type === 'input').every((e) => e.trusted)).toBe(true);
    expect(events.at(-2)).toMatchObject({ type: 'input', length: 50_000 });
    expect(events.at(-1)).toMatchObject({ type: 'change', length: 50_000 });
    expect(took).toBeLessThan(4_000);
  });

  it('a textarea with a maxlength keeps it for a text of many lines', async () => {
    await js('document.getElementById("bio").maxLength = 300');
    const result = await h.client.input.fill.mutate({ target: '#bio', text: 'line\n'.repeat(100) });
    expect(result).toMatchObject({ length: 300, truncated: true, matches: false });
  });

  it('type presses a key for each character of a long text: keydown, keypress, input and keyup each', async () => {
    await js(`(() => {
      window.counts = { keydown: 0, keypress: 0, input: 0, keyup: 0 };
      for (const type of Object.keys(counts)) document.getElementById('bio').addEventListener(type, () => counts[type]++);
    })()`);
    const line = 'Dear team, the report (v2) is ready: 42% done!\n';
    const text = line.repeat(40);
    const result = await h.client.input.type.mutate({ target: '#bio', text });
    expect(result).toMatchObject({ typedInto: expect.stringMatching(/^textbox "About you"/), editable: true });
    expect(await js('document.getElementById("bio").value')).toBe(text);
    const n = text.length;
    expect(await js('counts')).toEqual({ keydown: n, keypress: n, input: n, keyup: n });
  });

  it('an abandoned type stops typing', async () => {
    // each key costs the page 2 ms at least, so the whole text takes 20 s or more
    await js(
      `document.getElementById('bio').addEventListener('keydown', () => { const end = performance.now() + 2; while (performance.now() < end); })`,
    );
    const text = longText(10_000);
    const controller = new AbortController();
    const pending = h.client.input.type
      .mutate({ target: '#bio', text }, { signal: controller.signal })
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    controller.abort();
    await pending;
    // what was sent before the cancel is typed; then the field stops growing
    let typed = -1;
    for (let read = 0; read < 50; read++) {
      const now = await js<number>('document.getElementById("bio").value.length');
      if (now === typed) break;
      typed = now;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(typed).toBeGreaterThan(0);
    expect(typed).toBeLessThan(text.length / 2);
    expect(await js('document.getElementById("bio").value')).toBe(text.slice(0, typed));
  });
});
