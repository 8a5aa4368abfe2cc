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
