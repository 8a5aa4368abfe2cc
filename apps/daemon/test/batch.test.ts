import { type ArgusError } from '@argus/protocol';
import { createArgusClient } from '@argus/client';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();

describe('chain', () => {
  it('runs steps in order and reports every result', async () => {
    const result = await h.client.batch.chain.mutate({
      steps: [
        { command: 'page.goto', input: { url: h.server.urlFor('/form.html') } },
        { command: 'input.fill', input: { target: '#name', text: 'Ada' } },
        { command: 'page.eval', input: { js: "document.querySelector('#name').value" } },
      ],
    });
    expect(result.ok).toBe(true);
    expect(result.failedStep).toBeNull();
    expect(result.results.map((r) => r.ok)).toEqual([true, true, true]);
    expect(result.results[2]?.output).toMatchObject({ value: 'Ada' });
  });

  it('stops at the first failing step and says which one', async () => {
    const result = await h.client.batch.chain.mutate({
      steps: [
        { command: 'page.url', input: {} },
        { command: 'read.text', input: { target: '#does-not-exist' } },
        { command: 'page.eval', input: { js: "document.title = 'should not run'" } },
      ],
    });
    expect(result.ok).toBe(false);
    expect(result.failedStep).toBe(1);
    expect(result.results).toHaveLength(2);
    expect(result.results[1]).toMatchObject({ index: 1, command: 'read.text', ok: false });
    expect(result.results[1]?.error?.code).toMatch(/element_not_found|ref_not_found/);
    expect((await h.client.page.url.query({})).title).not.toBe('should not run');
  });

  it('validates each step with the command schema', async () => {
    const result = await h.client.batch.chain.mutate({
      steps: [
        { command: 'page.url', input: {} },
        { command: 'page.goto', input: { url: 'javascript:alert(1)' } },
      ],
    });
    expect(result.failedStep).toBe(1);
    expect(result.results[1]?.error?.code).toBe('invalid_input');
    expect(result.results[1]?.error?.message).toMatch(/url/);
  });

  it('refuses an empty or oversize chain before running anything', async () => {
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (error: ArgusError) => error.code,
      );
    expect(await codeOf(h.client.batch.chain.mutate({ steps: [] }))).toBe('invalid_input');
    const many = Array.from({ length: 51 }, () => ({ command: 'page.url', input: {} }));
    expect(await codeOf(h.client.batch.chain.mutate({ steps: many }))).toBe('invalid_input');
  });
});

describe('batch', () => {
  it('isolates errors: one result per command, in request order', async () => {
    const result = await h.client.batch.run.mutate({
      commands: [
        { command: 'page.goto', input: { url: h.server.urlFor('/form.html') } },
        { command: 'read.text', input: { target: '#nope' } },
        { command: 'page.goto', input: { url: '' } },
        { command: 'page.nope', input: {} },
        { command: 'batch.run', input: { commands: [] } },
        { command: 'capture.consoleFollow', input: {} },
        { command: 'page.url', input: {} },
      ],
    });
    expect(result.results.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(result.results.map((r) => r.ok)).toEqual([true, false, false, false, false, false, true]);
    expect(result.results.slice(2, 6).map((r) => r.error?.code)).toEqual([
      'invalid_input',
      'invalid_input',
      'invalid_input',
      'invalid_input',
    ]);
    expect(result.results[6]?.output).toMatchObject({ title: 'Sign up' });
    expect(result).toMatchObject({ succeeded: 2, failed: 5 });
  });

  it('authorizes each command with the caller token scopes', async () => {
    const { token } = await h.client.token.create.mutate({ scope: 'read' });
    const reader = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token });
    const result = await reader.client.batch.run.mutate({
      commands: [
        { command: 'page.url', input: {} },
        { command: 'page.eval', input: { js: '1' } },
        { command: 'token.create', input: { scope: 'admin' } },
      ],
    });
    expect(result.results.map((r) => r.error?.code ?? 'ok')).toEqual(['ok', 'forbidden_scope', 'forbidden_scope']);
    const chain = await reader.client.batch.chain.mutate({
      steps: [{ command: 'page.goto', input: { url: h.server.urlFor('/form.html') } }],
    });
    expect(chain.results[0]?.error?.code).toBe('forbidden_scope');
    reader.close();
  });

  it('runs commands on two tabs, in order per tab and in parallel across tabs', async () => {
    const first = (await h.client.tabs.list.query({})).tabs.find((tab) => tab.active)!.id;
    const second = (await h.client.tabs.open.mutate({})).id;
    // each first load waits at a barrier until the other tab's load arrives: in series, the first
    // would give up after 5 s and read "alone"
    const result = await h.client.batch.run.mutate({
      commands: [
        {
          command: 'page.goto',
          input: { tab: first, url: h.server.urlFor('/barrier?name=batch-tabs&count=2&ms=5000&tab=1') },
        },
        {
          command: 'page.goto',
          input: { tab: second, url: h.server.urlFor('/barrier?name=batch-tabs&count=2&ms=5000&tab=2') },
        },
        { command: 'read.text', input: { tab: first } },
        { command: 'read.text', input: { tab: second } },
        { command: 'page.goto', input: { tab: first, url: h.server.urlFor('/nav-a.html') } },
        { command: 'page.goto', input: { tab: second, url: h.server.urlFor('/nav-b.html') } },
        { command: 'page.url', input: { tab: first } },
        { command: 'page.url', input: { tab: second } },
      ],
    });
    expect(result.failed).toBe(0);
    expect((result.results[2]?.output as { text: string }).text).toContain('met');
    expect((result.results[3]?.output as { text: string }).text).toContain('met');
    expect((result.results[6]?.output as { url: string }).url).toBe(h.server.urlFor('/nav-a.html'));
    expect((result.results[7]?.output as { url: string }).url).toBe(h.server.urlFor('/nav-b.html'));
  });
});

describe('tab-each', () => {
  it('runs one command on every tab with per-tab results', async () => {
    const tabs = (await h.client.tabs.list.query({})).tabs;
    expect(tabs.length).toBeGreaterThanOrEqual(2);
    const { results } = await h.client.batch.tabEach.mutate({
      command: 'page.eval',
      input: { js: 'location.pathname' },
    });
    expect(results.map((r) => r.tab).sort()).toEqual(tabs.map((tab) => tab.id).sort());
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.map((r) => (r.output as { value: string }).value).sort()).toEqual(['/nav-a.html', '/nav-b.html']);
  });

  it('keeps per-tab errors apart and refuses commands without a tab', async () => {
    const { results } = await h.client.batch.tabEach.mutate({ command: 'read.text', input: { target: '#to-b' } });
    const byUrl = new Map(results.map((r) => [new URL(r.url).pathname, r]));
    expect(byUrl.get('/nav-a.html')).toMatchObject({ ok: true, output: { text: 'Go to page B' } });
    expect(byUrl.get('/nav-b.html')?.ok).toBe(false);
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (error: ArgusError) => error.code,
      );
    expect(await codeOf(h.client.batch.tabEach.mutate({ command: 'tabs.list', input: {} }))).toBe('invalid_input');
    expect(await codeOf(h.client.batch.tabEach.mutate({ command: 'page.url', input: { tab: 'x' } }))).toBe(
      'invalid_input',
    );
    expect(await codeOf(h.client.batch.tabEach.mutate({ command: 'page.nope', input: {} }))).toBe('invalid_input');
  });
});
