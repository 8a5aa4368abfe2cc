import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { callTool, ok, textOf, usePluginWorkspace } from './helpers.js';

// Issue 20 through MCP (SDK client, real daemon and Chromium): a navigation's challenge reaches the
// agent in text and structuredContent; the watch link from argus_watch serves live frames; and
// argus_handoff without a display is an error that says what to do (the daemon here has none).

const w = usePluginWorkspace({ prefix: 'argus-mcp-human-', args: ['--profile', 'full'] });

describe('the human in the loop over MCP', () => {
  it('argus_goto on a login wall carries the challenge, with the handoff hint for the agent', async () => {
    const result = await callTool(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/login.html') });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ challenge: { kind: 'login' } });
    expect(textOf(result)).toMatch(/challenge: login: .*argus_handoff/);
    // the full profile has the tool: the hint is its call, with nothing said missing
    expect(textOf(result)).toContain('`argus_handoff {"reason":"Log in, then press Done","wait":true}`');
    expect(textOf(result)).not.toContain('not in this server');
    const plain = await callTool(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/form.html') });
    expect(plain.structuredContent).not.toHaveProperty('challenge');
  });

  it('argus_watch returns a link whose viewer socket gets the tab live', async () => {
    const text = await ok(w.plugin.client, 'argus_watch', {});
    const url = new URL(/http:\/\/127\.0\.0\.1:\d+\/watch#\S+/.exec(text)?.[0] ?? '');
    const fragment = new URLSearchParams(url.hash.slice(1));
    const socket = new WebSocket(`ws://127.0.0.1:${url.port}/watch/ws`, { origin: url.origin });
    const texts: Array<{ type: string }> = [];
    let frames = 0;
    socket.on('message', (data, binary) => {
      if (binary) frames++;
      else texts.push(JSON.parse(String(data)) as { type: string });
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'auth', tab: fragment.get('tab'), token: fragment.get('token') }));
    await ok(w.plugin.client, 'argus_eval', { js: 'document.body.style.background = "rgb(0, 0, 255)"' });
    await expect.poll(() => frames, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(texts[0]).toMatchObject({ type: 'hello', control: false });
    socket.close();
  });

  it('argus_handoff with no display is an error naming the extension; argus_resume has nothing to end', async () => {
    const handoff = await callTool(w.plugin.client, 'argus_handoff', { reason: 'Log in, then press Done' });
    expect(handoff.isError).toBe(true);
    expect(textOf(handoff)).toMatch(/no_display/);
    expect(textOf(handoff)).toMatch(/argus connect --extension/);
    const resume = await callTool(w.plugin.client, 'argus_resume', {});
    expect(resume.isError).toBe(true);
    expect(textOf(resume)).toMatch(/no_handoff/);
  });
});
