import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOf, useHarness } from './harness.js';

/** Issue 14's operator verbs against a real daemon and Chromium: eval --file. */
describe('eval --file', () => {
  const h = useHarness();

  it('runs a script file from the caller’s area, rendered like an inline eval', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    const file = join(h.workspace, 'collect.js');
    writeFileSync(
      file,
      'const inputs = document.querySelectorAll("input").length;\n({ title: document.title, inputs })\n',
    );
    const fromFile = await h.client.page.eval.mutate({ file });
    const inline = await h.client.page.eval.mutate({
      js: 'const inputs = document.querySelectorAll("input").length;\n({ title: document.title, inputs })',
    });
    expect(fromFile).toEqual(inline);
    expect(fromFile.type).toBe('object');
  });

  it('refuses files outside the allowed area, oversized files, and ambiguous input', async () => {
    expect(await codeOf(h.client.page.eval.mutate({ file: '/etc/hostname' }))).toBe('path_forbidden');
    const big = join(h.workspace, 'big.js');
    writeFileSync(big, `//${'x'.repeat(1_000_000)}`);
    expect(await codeOf(h.client.page.eval.mutate({ file: big }))).toBe('invalid_input');
    expect(await codeOf(h.client.page.eval.mutate({ file: join(h.workspace, 'missing.js') }))).toBe('invalid_input');
    expect(await codeOf(h.client.page.eval.mutate({}))).toBe('invalid_input');
    expect(await codeOf(h.client.page.eval.mutate({ js: '1', file: big }))).toBe('invalid_input');
  });
});
