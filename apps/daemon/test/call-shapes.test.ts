// How scripts call the typed client: commands whose fields are all optional take no input at all,
// and a query/mutation mix-up is the caller's mistake (invalid_input saying how to call it), never
// reported as an internal bug.
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();

describe('call shapes', () => {
  it('runs a command with only optional fields when called with no input', async () => {
    const { tabs } = await h.client.tabs.list.query();
    expect(Array.isArray(tabs)).toBe(true);
    const opened = await h.client.tabs.open.mutate();
    expect(opened.url).toBe('about:blank');
    await h.client.tabs.close.mutate({ id: opened.id });
  });

  it('names the missing field when a command that needs input gets none', async () => {
    // @ts-expect-error -- goto needs a url: calling it bare must not compile
    const error = await h.client.page.goto.mutate().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_input' });
    expect((error as Error).message).toMatch(/argus goto.*url/);
  });

  it('answers a query sent as a mutation (and the reverse) with how to call it', async () => {
    const base = `http://127.0.0.1:${h.daemon.port}/trpc`;
    const headers = { authorization: `Bearer ${h.daemon.token}`, 'content-type': 'application/json' };
    const asGet = await fetch(`${base}/snapshot.take`, { headers });
    const getBody = (await asGet.json()) as { error: { data: { argus: { code: string; message: string } } } };
    expect(getBody.error.data.argus.code).toBe('invalid_input');
    expect(getBody.error.data.argus.message).toMatch(/snapshot\.take is a mutation: call it with \.mutate\(\)/);
    const asPost = await fetch(`${base}/tabs.list`, { method: 'POST', headers, body: '{}' });
    const postBody = (await asPost.json()) as { error: { data: { argus: { code: string; message: string } } } };
    expect(postBody.error.data.argus.code).toBe('invalid_input');
    expect(postBody.error.data.argus.message).toMatch(/tabs\.list is a query: call it with \.query\(\)/);
  });
});
