import { describe, expect, it } from 'vitest';
import { renderCommand } from '@argus/protocol/render';
import { useHarness } from './harness.js';

const h = useHarness();

describe('console messages across pages', () => {
  it('each message names the page it was logged on; a list spanning pages marks where each starts', async () => {
    const tab = await h.client.tabs.open.mutate({});
    const first = h.server.urlFor('/console.html');
    await h.client.page.goto.mutate({ url: first, tab: tab.id });
    await h.client.page.eval.mutate({ js: 'console.log("second page says hi"); 1', tab: tab.id });
    const second = h.server.urlFor('/nav-a.html');
    await h.client.page.goto.mutate({ url: second, tab: tab.id });
    await h.client.page.eval.mutate({ js: 'console.error("after the move"); 1', tab: tab.id });

    const { messages } = await h.client.capture.console.query({ tab: tab.id });
    const pageOf = (text: string) => messages.find((message) => message.text === text)?.page;
    expect(pageOf('console.html: error message')).toBe(first);
    expect(pageOf('after the move')).toBe(second);

    const input = { tab: tab.id, errors: false, limit: 100, clear: false };
    const output = await h.client.capture.console.query(input);
    const lines = renderCommand('capture.console', output, {
      surface: 'cli',
      input,
      label: (name) => name,
      hint: (name) => name,
    }).split('\n');
    // the page before's error is under its own heading, not read as the new page's
    expect(lines.indexOf(`-- at ${first} --`)).toBeLessThan(
      lines.findIndex((line) => line.includes('console.html: error message')),
    );
    expect(lines.indexOf(`-- at ${second} --`)).toBeGreaterThan(
      lines.findIndex((line) => line.includes('console.html: error message')),
    );
    expect(lines.indexOf(`-- at ${second} --`)).toBeLessThan(
      lines.findIndex((line) => line.includes('after the move')),
    );
    await h.client.tabs.close.mutate({ id: tab.id });
  });
});
