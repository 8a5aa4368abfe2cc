import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createArgusClient } from '@argus/client';
import { describe, expect, it } from 'vitest';
import { codeOf, useHarness } from './harness.js';

// Attacks on local-file reading through the browser (issue 11, item 1). Each performs the attack in
// real Chromium through the real daemon and checks it is refused and that no file content comes back.

const h = useHarness();
const PASSWD = 'root:x:0:';

async function scoped(scope: 'read' | 'write') {
  const { token } = await h.client.token.create.mutate({ scope });
  return createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token });
}

/** Everything an agent could read back from the active tab: text (every frame), snapshot, html. */
async function everythingVisible(): Promise<string> {
  const text = await h.client.read.text.query({}).catch((error: Error) => error.message);
  const snapshot = await h.client.snapshot.take.mutate({}).catch((error: Error) => error.message);
  const html = await h.client.page.eval
    .mutate({ js: 'document.documentElement.outerHTML' })
    .catch((error: Error) => ({ value: error.message }));
  return JSON.stringify([text, snapshot, html]);
}

describe('typed URLs are confined at the command input', () => {
  it('refuses file:, view-source:file:, filesystem:, javascript: and chrome: for every scope', async () => {
    const token = readFileSync(join(h.daemon.stateDir, 'daemon.json'), 'utf8');
    expect(token).toContain(h.daemon.token);
    const writer = await scoped('write');
    for (const client of [h.client, writer.client]) {
      for (const url of [
        'file:///etc/passwd',
        `file://${join(h.daemon.stateDir, 'daemon.json')}`,
        `view-source:file://${join(h.daemon.stateDir, 'daemon.json')}`,
        'view-source:file:///etc/passwd',
        'filesystem:http://127.0.0.1/temporary/x',
        'chrome://version',
      ]) {
        expect(await codeOf(client.page.goto.mutate({ url })), url).toBe('url_forbidden');
      }
      // script URLs are refused earlier still, by the input schema
      expect(await codeOf(client.page.goto.mutate({ url: 'javascript:document.title' }))).toBe('invalid_input');
      expect(await codeOf(client.tabs.open.mutate({ url: 'file:///etc/passwd' }))).toBe('url_forbidden');
      expect(
        await codeOf(client.dom.diff.mutate({ from: 'file:///etc/passwd', to: h.server.urlFor('/form.html') })),
      ).toBe('url_forbidden');
    }
    writer.close();
    const error = await h.client.page.goto.mutate({ url: 'file:///etc/passwd' }).catch((caught: Error) => caught);
    expect((error as Error).message).toMatch(/load-html/);
    expect(await everythingVisible()).not.toContain(h.daemon.token);
  });
});

describe('navigations a page starts itself are confined in the browser', () => {
  it('a loaded HTML file cannot link, frame, embed or script-navigate to files outside the area', async () => {
    const stateFile = join(h.daemon.stateDir, 'daemon.json');
    writeFileSync(
      join(h.workspace, 'lure.html'),
      `<title>lure</title><a id="out" href="file:///etc/passwd">passwd</a> <a id="state" href="file://${stateFile}">state</a>
       <iframe src="file:///etc/passwd"></iframe><iframe src="file://${stateFile}"></iframe><object data="file:///etc/passwd"></object>`,
    );
    await h.client.dom.loadHtml.mutate({ file: 'lure.html' });
    expect(await everythingVisible()).not.toContain(PASSWD);
    expect(await everythingVisible()).not.toContain(h.daemon.token);
    await h.client.input.click.mutate({ target: '#out' });
    expect(await everythingVisible()).not.toContain(PASSWD);
    await h.client.dom.loadHtml.mutate({ file: 'lure.html' });
    await h.client.input.click.mutate({ target: '#state' });
    expect(await everythingVisible()).not.toContain(h.daemon.token);

    writeFileSync(join(h.workspace, 'jump.html'), `<script>location = 'file://${stateFile}'</script>`);
    // the page leaves before its own load event: the load-html wait may end either way
    await h.client.dom.loadHtml.mutate({ file: 'jump.html', timeoutMs: 3_000 }).catch(() => undefined);
    expect(await everythingVisible()).not.toContain(h.daemon.token);
    writeFileSync(join(h.workspace, 'popup.html'), `<script>window.open('file:///etc/passwd')</script>`);
    await h.client.dom.loadHtml.mutate({ file: 'popup.html' });
    for (const tab of (await h.client.tabs.list.query({})).tabs) {
      await h.client.tabs.select.mutate({ id: tab.id });
      expect(await everythingVisible()).not.toContain(PASSWD);
    }
  });

  it('a web page cannot redirect or script-navigate to file:', async () => {
    // the fixture server will not redirect to file: (by design), so a hostile server of our own does
    const hostile = createServer((_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = hostile.address() as AddressInfo;
      expect(await codeOf(h.client.page.goto.mutate({ url: `http://127.0.0.1:${port}/` }))).toBe('navigation_failed');
    } finally {
      hostile.closeAllConnections();
      await new Promise((resolve) => hostile.close(resolve));
    }
    expect(await everythingVisible()).not.toContain(PASSWD);
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    await h.client.page.eval.mutate({ js: "location.href = 'file:///etc/passwd'; 1" });
    await h.client.page.wait.mutate({ ms: 300 }).catch(() => undefined);
    expect(await everythingVisible()).not.toContain(PASSWD);
  });

  it('files inside the area still load (the policy confines, it does not break load-html)', async () => {
    writeFileSync(join(h.workspace, 'next.html'), '<title>next</title><p>inside the workspace</p>');
    writeFileSync(
      join(h.workspace, 'start.html'),
      '<a id="go" href="next.html">next</a><iframe src="next.html"></iframe>',
    );
    await h.client.dom.loadHtml.mutate({ file: 'start.html' });
    expect((await h.client.snapshot.take.mutate({})).text).toContain('inside the workspace');
    const clicked = await h.client.input.click.mutate({ target: '#go' });
    expect(clicked.url).toMatch(/\/next\.html$/);
    expect((await h.client.read.text.query({})).text).toContain('inside the workspace');
  });
});

describe('URLs as users type them', () => {
  it('bare loopback hosts get http://, and an SSL error suggests http://', async () => {
    const port = h.server.port;
    const bare = await h.client.page.goto.mutate({ url: `localhost:${port}/form.html` });
    expect(bare.url).toBe(`http://localhost:${port}/form.html`);
    const ip = await h.client.page.goto.mutate({ url: `127.0.0.1:${port}/form.html` });
    expect(ip.url).toBe(`http://127.0.0.1:${port}/form.html`);
    const error = await h.client.page.goto
      .mutate({ url: `https://127.0.0.1:${port}/form.html` })
      .catch((caught: Error) => caught);
    expect((error as Error).message).toMatch(
      new RegExp(`try \`argus goto http://127\\.0\\.0\\.1:${port}/form\\.html\``),
    );
  });
});
