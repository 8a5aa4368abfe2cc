import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

// Issue 14 edge: a command sent to a popup before its first document commits must not meet the page
// guard on a frame with no URL yet (url_forbidden "it is not a URL"). On main it already waits for the
// navigation in flight (eval answered after ~1.6 s here); this keeps that behaviour.

describe('a command on a popup before its first commit', () => {
  const h = useHarness();
  let app: FixtureServer;
  beforeAll(async () => {
    app = await startFixtureServer({
      pages: {
        '/opener': `<!doctype html><title>opener</title><button id="open" onclick="window.open('/slow?ms=1500')">open</button>`,
      },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('waits for the popup to commit its document, then answers from it', async () => {
    await h.client.page.goto.mutate({ url: `${app.origin}/opener` });
    const clicked = await h.client.input.click.mutate({ target: '#open' });
    const popup = clicked.openedTabs[0]!.id;
    expect(popup).toBeTruthy();
    // sent at once: the response is still 1.5 s away
    expect((await h.client.page.eval.mutate({ js: 'location.href', tab: popup })).value).toBe(
      `${app.origin}/slow?ms=1500`,
    );
    const text = await h.client.read.text.query({ tab: popup });
    expect(text.text).toContain('Waited 1500 ms');
    expect((await h.client.page.url.query({ tab: popup })).url).toBe(`${app.origin}/slow?ms=1500`);
  });
});
