import { readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createArgusClient } from '@argus/client';
import { hashToken } from '@argus/security';
import { describe, expect, it } from 'vitest';
import { codeOf, refOf, useHarness } from './harness.js';

// Remote agents: a shared token on the tunnel listener sees and drives only its own tabs, runs only
// its allow-list, expires, dies at once when revoked; the root token is refused there.
const h = useHarness();

async function share(input: { name: string; ttl?: string; scope?: 'read' | 'write'; commands?: string[] }) {
  const minted = await h.client.token.share.mutate(input);
  const handle = createArgusClient({ url: minted.url, token: minted.token });
  return { minted, agent: handle.client, close: () => handle.close() };
}

async function logLines(): Promise<Array<Record<string, unknown>>> {
  await h.daemon.services.log.flush(); // the log is asynchronous: wait until what was logged is on disk
  return readFileSync(join(h.daemon.stateDir, 'daemon.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('tunnel listener and shared tokens', () => {
  it("a shared agent cannot see or act on the operator's tabs, and works on its own", async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    const operatorTab = (await h.client.tabs.list.query({})).tabs.find((tab) => tab.active)!.id;
    const { minted, agent, close } = await share({ name: 'remote-a' });
    expect(minted.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(minted.url).not.toContain(String(h.daemon.port));

    // sees nothing of the operator
    expect((await agent.tabs.list.query({})).tabs).toEqual([]);
    // cannot act on the operator's tab by id (the same answer as for a tab that does not exist)
    expect(await codeOf(agent.read.text.query({ tab: operatorTab }))).toBe('tab_not_found');
    expect(await codeOf(agent.page.goto.mutate({ url: h.server.urlFor('/form.html'), tab: operatorTab }))).toBe(
      'tab_not_found',
    );
    expect(await codeOf(agent.tabs.select.mutate({ id: operatorTab }))).toBe('tab_not_found');
    expect(await codeOf(agent.tabs.close.mutate({ id: operatorTab }))).toBe('tab_not_found');

    // its first command opens its own tab; goto, snapshot and click work there
    await agent.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    const snapshot = await agent.snapshot.take.mutate({ interactive: true });
    await agent.input.click.mutate({ target: refOf(snapshot.text, /button "Increment"/) });
    const own = (await agent.tabs.list.query({})).tabs;
    expect(own).toHaveLength(1);
    expect(own[0]!.id).not.toBe(operatorTab);

    // the operator's tab is untouched and still the operator's active tab; the operator sees both
    expect((await h.client.page.url.query({})).url).toContain('/buttons.html');
    const all = (await h.client.tabs.list.query({})).tabs.map((tab) => tab.id);
    expect(all).toEqual(expect.arrayContaining([operatorTab, own[0]!.id]));
    expect((await h.client.tabs.list.query({})).tabs.find((tab) => tab.active)!.id).toBe(operatorTab);

    // the agent's tab has its own cookie jar: a cookie the operator's page sets is not sent from it
    await h.client.page.eval.mutate({ js: 'document.cookie = "operator_session=secret; path=/"' });
    await agent.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    const agentCookies = await h.client.page.eval.mutate({ js: 'document.cookie', tab: own[0]!.id });
    expect(agentCookies.value).toBe('');

    // denials are logged with the token id, never the secret
    const denied = (await logLines()).filter((line) => line.event === 'share.denied' && line.token === minted.id);
    expect(denied.map((line) => line.reason)).toContain('tab');
    expect(readFileSync(join(h.daemon.stateDir, 'daemon.log'), 'utf8')).not.toContain(minted.token);
    close();
  });

  it('runs only its allow-list: no eval, no file paths; screenshots come back inline', async () => {
    const { minted, agent, close } = await share({ name: 'remote-b' });
    await agent.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    expect(await codeOf(agent.page.eval.mutate({ js: '1 + 1' }))).toBe('forbidden_scope');
    expect(await codeOf(agent.page.screenshot.mutate({ path: 'shot.png' }))).toBe('path_forbidden');
    expect(await codeOf(agent.inspect.cookies.query({}))).toBe('forbidden_scope');
    expect(await codeOf(agent.token.create.mutate({ scope: 'admin' }))).toBe('forbidden_scope');
    const shot = await agent.page.screenshot.mutate({});
    expect(shot.path).toBeNull();
    expect(shot.base64?.length).toBeGreaterThan(100);
    const reasons = (await logLines())
      .filter((line) => line.event === 'share.denied' && line.token === minted.id)
      .map((line) => `${line.command}:${line.reason}`);
    expect(reasons).toEqual(
      expect.arrayContaining(['page.eval:command', 'page.screenshot:file:path', 'inspect.cookies:command']),
    );
    close();

    // an explicit allow-list narrows further; --commands cannot grant what is never shared
    const narrow = await share({ name: 'remote-c', commands: ['goto', 'url'] });
    await narrow.agent.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    expect((await narrow.agent.page.url.query({})).url).toContain('/form.html');
    expect(await codeOf(narrow.agent.snapshot.take.mutate({}))).toBe('forbidden_scope');
    narrow.close();
    expect(await codeOf(h.client.token.share.mutate({ name: 'x', commands: ['cookie set'] }))).toBe('invalid_input');
    expect(await codeOf(h.client.token.share.mutate({ name: 'x', commands: ['download'] }))).toBe('invalid_input');
    expect(await codeOf(h.client.token.share.mutate({ name: 'x', listen: '0.0.0.0:0' }))).toBe('invalid_input');
  });

  it('the root token is refused on the tunnel, a shared token on the main listener', async () => {
    const { minted, close } = await share({ name: 'remote-d' });
    const rootOnTunnel = createArgusClient({ url: minted.url, token: h.daemon.token });
    expect(await codeOf(rootOnTunnel.client.tabs.list.query({}))).toBe('unauthorized');
    rootOnTunnel.close();
    const shareOnMain = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: minted.token });
    expect(await codeOf(shareOnMain.client.tabs.list.query({}))).toBe('unauthorized');
    shareOnMain.close();
    expect(
      (await logLines()).some(
        (line) =>
          line.event === 'tunnel.denied' &&
          line.reason === 'unknown' &&
          line.token === hashToken(h.daemon.token).slice(0, 12),
      ),
    ).toBe(true);
    close();
  });

  it('a revoked token fails at once and its tabs close; tokens lists last use, never secrets', async () => {
    const { minted, agent, close } = await share({ name: 'remote-e' });
    await agent.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    const tab = (await agent.tabs.list.query({})).tabs[0]!.id;
    const listed = await h.client.token.list.query({});
    const entry = listed.tokens.find((token) => token.id === minted.id)!;
    expect(entry).toMatchObject({ kind: 'shared', name: 'remote-e', scope: 'write', expired: false });
    expect(entry.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(minted.token);
    expect(listed.tokens.find((token) => token.kind === 'root')).toBeDefined();

    // stored hashed, 0600
    const file = join(h.daemon.stateDir, 'shares.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = readFileSync(file, 'utf8');
    expect(stored).not.toContain(minted.token);
    expect(stored).toContain(hashToken(minted.token));

    expect(await h.client.token.revoke.mutate({ id: minted.id })).toEqual({
      revoked: minted.id,
      kind: 'shared',
      closedTabs: 1,
    });
    expect(await codeOf(agent.tabs.list.query({}))).toBe('unauthorized');
    expect((await h.client.tabs.list.query({})).tabs.map((t) => t.id)).not.toContain(tab);
    expect(await codeOf(h.client.token.revoke.mutate({ id: minted.id }))).toBe('invalid_input');
    close();
  });

  it('a shared token expires', async () => {
    const { minted, agent, close } = await share({ name: 'remote-f', ttl: '5s' });
    await agent.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    const tab = (await agent.tabs.list.query({})).tabs[0]!.id;
    // the one wait in this file: the token's lifetime has to pass
    await sleep(Math.max(0, Date.parse(minted.expiresAt) - Date.now()) + 50);
    expect(await codeOf(agent.tabs.list.query({}))).toBe('unauthorized');
    // its tabs went with it
    expect((await h.client.tabs.list.query({})).tabs.map((entry) => entry.id)).not.toContain(tab);
    expect((await h.client.token.list.query({})).tokens.find((token) => token.id === minted.id)?.expired).toBe(true);
    expect(
      (await logLines()).some(
        (line) => line.event === 'tunnel.denied' && line.reason === 'expired' && line.token === minted.id,
      ),
    ).toBe(true);
    close();
  });
});

describe('tunnel listener: browser and DNS-rebinding requests', () => {
  it('refuses a foreign Host (421) and any Origin (403) before looking at the token', async () => {
    const { minted, close } = await share({ name: 'remote-host' });
    const { port } = new URL(minted.url);
    const send = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: Number(port),
            path: '/mcp',
            method: 'POST',
            headers: { authorization: `Bearer ${minted.token}`, 'content-type': 'application/json', ...headers },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    expect(await send({ host: 'evil.example' })).toBe(421);
    expect(await send({ host: `evil.example:${port}` })).toBe(421);
    expect(await send({ host: `127.0.0.1:${port}`, origin: 'https://evil.example' })).toBe(403);
    // a loopback name on another port is what an SSH forward's far end looks like: let through to auth
    expect(await send({ host: 'localhost:2222' })).not.toBe(421);
    close();
  });
});
