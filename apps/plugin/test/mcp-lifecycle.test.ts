import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectToDaemon, daemonAnswers, isProcessAlive, readState } from '@argus/client';
import { type FixtureServer, listArgusChromeProcesses, parentOf, startFixtureServer } from '@argus/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVER, ok, pluginEnv, startPlugin, stopDaemon, waitFor } from './helpers.js';

// Issue 14: `argus mcp` takes down the daemon and Chromium it started when its agent leaves, unless
// another client uses them or --keep-browser was given. Issue 16: by default the server hosts that
// daemon in its own process; when others use it as the agent leaves, it moves to a process of its own.

let fixtures: FixtureServer;
let workspace = '';
let stateDir = '';

beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.close();
});
afterEach(async () => {
  await stopDaemon(stateDir);
  rmSync(workspace, { recursive: true, force: true });
});

/** argus-mcp in a fresh workspace (this test's `workspace` and `stateDir`), with `env` added to its environment. */
function pluginInFreshWorkspace(
  args: string[] = [],
  env: Record<string, string> = {},
  capabilities?: Parameters<typeof startPlugin>[0]['capabilities'],
) {
  workspace = mkdtempSync(join(tmpdir(), 'argus-mcp-life-'));
  stateDir = join(workspace, '.argus');
  return startPlugin({
    args: [SERVER, ...args],
    env: { ...pluginEnv(stateDir), ...env },
    cwd: workspace,
    ...(capabilities ? { capabilities } : {}),
  });
}

/** A server in a fresh workspace that has opened a page: its daemon and browser pids. */
async function agentWithPage(args: string[] = [], env: Record<string, string> = {}) {
  const plugin = await pluginInFreshWorkspace(args, env);
  expect(await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/form.html') })).toMatch(/form/);
  const daemonPid = readState(stateDir)!.pid;
  // status is looking, not using: it does not count as another client
  const probe = await connectToDaemon({ stateDir, name: 'test-probe' });
  const browserPid = (await probe.client.daemon.status.query({})).browser.pid!;
  probe.close();
  expect(isProcessAlive(daemonPid) && isProcessAlive(browserPid)).toBe(true);
  const serverPid = plugin.transport.pid!;
  /** Closes the client (stdin) and waits for the server process to be gone. */
  const leave = async () => {
    await plugin.close();
    await waitFor(() => !isProcessAlive(serverPid), 10_000, 'argus mcp to exit');
  };
  return { plugin, daemonPid, browserPid, leave };
}

const logOf = () => readFileSync(join(stateDir, 'daemon.log'), 'utf8');

describe('argus mcp and the daemon it started', () => {
  it('stops that daemon and its Chromium when the agent disconnects', async () => {
    const agent = await agentWithPage();
    await agent.leave();
    await waitFor(
      () => !isProcessAlive(agent.daemonPid) && !isProcessAlive(agent.browserPid),
      20_000,
      'the daemon and Chromium to exit',
    );
    expect(existsSync(join(stateDir, 'daemon.json'))).toBe(false);
  });

  it('leaves them running with --keep-browser (the test stops them)', async () => {
    const agent = await agentWithPage(['--keep-browser']);
    await agent.leave();
    const state = readState(stateDir)!;
    expect(state.pid).toBe(agent.daemonPid);
    expect(await daemonAnswers(state)).toBe(true);
    expect(isProcessAlive(agent.browserPid)).toBe(true);
    expect(logOf()).not.toMatch(/daemon\.stop/);
  });

  it('hosts the daemon in its own process; a second server shares it over its port (no Chromium of its own) and hosts the next one once it stops', async () => {
    const agent = await agentWithPage();
    expect(agent.daemonPid).toBe(agent.plugin.transport.pid);
    const second = await startPlugin({ args: [SERVER], env: pluginEnv(stateDir), cwd: workspace });
    const secondPid = second.transport.pid!;
    try {
      // a browser tool: the server cues a launch only for a daemon it hosts
      expect(await ok(second.client, 'argus_tabs')).toContain('form.html');
      expect(readState(stateDir)!.pid).toBe(agent.daemonPid);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const parents = listArgusChromeProcesses().map((chrome) => parentOf(chrome.pid));
      expect(parents).not.toContain(secondPid);
      // the shared daemon stops (argus stop): the second server's next call hosts a new one, which
      // the first server, finding it running, shares in turn
      const stopped = readState(stateDir)!;
      await stopDaemon(stateDir);
      // gone from its port too (a call sent while it closes would be daemon_lost, as for any daemon)
      await waitFor(async () => !(await daemonAnswers(stopped)), 10_000, 'the stopped daemon to close its port');
      expect(await ok(second.client, 'argus_tabs')).toBeTruthy();
      expect(readState(stateDir)!.pid).toBe(secondPid);
      expect(await ok(agent.plugin.client, 'argus_tabs')).toBeTruthy();
      expect(readState(stateDir)!.pid).toBe(secondPid);
    } finally {
      await agent.leave();
      await second.close();
    }
    await waitFor(() => !isProcessAlive(secondPid), 10_000, 'the second server to exit');
  });

  for (const hosted of [true, false]) {
    const how = hosted ? 'a hosted daemon moves to a process of its own' : 'a daemon process keeps running';
    it(`while another client uses the daemon, ${how}, and the log says who`, async () => {
      const agent = await agentWithPage([], hosted ? {} : { ARGUS_MCP_DAEMON: 'process' });
      expect(agent.daemonPid === agent.plugin.transport.pid).toBe(hosted);
      const other = await connectToDaemon({ stateDir, name: 'other-agent' });
      try {
        expect((await other.client.tabs.list.query({})).tabs.length).toBeGreaterThan(0);
      } finally {
        other.close();
      }
      await agent.leave();
      // the server did ask, and was told no
      await waitFor(() => logOf().includes('daemon.stop_declined'), 10_000, 'the declined stop in the log');
      const declined = logOf()
        .split('\n')
        .filter((line) => line.includes('"daemon.stop_declined"'))
        .map((line) => JSON.parse(line) as { by: string; others: string[] });
      expect(declined).toEqual([{ ...declined[0], by: expect.stringMatching(/^mcp-/), others: ['other-agent'] }]);
      if (hosted) {
        await waitFor(
          async () => {
            const next = readState(stateDir);
            return next !== undefined && next.pid !== agent.daemonPid && (await daemonAnswers(next));
          },
          20_000,
          'the daemon process it handed over to',
        );
      }
      const state = readState(stateDir)!;
      expect(await daemonAnswers(state)).toBe(true);
      if (!hosted) {
        expect(state.pid).toBe(agent.daemonPid);
        expect(isProcessAlive(agent.browserPid)).toBe(true);
        return;
      }
      // a new daemon process, with the agent's tab reopened in a fresh browser (argus restart's state)
      expect(state.pid).not.toBe(agent.daemonPid);
      await waitFor(() => !isProcessAlive(agent.browserPid), 10_000, "the hosted daemon's Chromium to exit");
      const next = await connectToDaemon({ stateDir, name: 'other-agent' });
      try {
        const { tabs } = await next.client.tabs.list.query({});
        expect(tabs.map((tab) => tab.url)).toContain(fixtures.urlFor('/form.html'));
      } finally {
        next.close();
      }
    });
  }

  for (const hosted of [true, false]) {
    const what = hosted
      ? 'the daemon process a hosting agent handed over to'
      : 'the daemon process its starting agent left';
    it(`stops ${what}, and its Chromium, once the other agent using it leaves too`, async () => {
      const agent = await agentWithPage([], hosted ? {} : { ARGUS_MCP_DAEMON: 'process' });
      // another agent's server in the same workspace: it finds the daemon running and shares it
      const other = await startPlugin({ args: [SERVER], env: pluginEnv(stateDir), cwd: workspace });
      const otherPid = other.transport.pid!;
      expect(await ok(other.client, 'argus_tabs')).toBeTruthy();
      await agent.leave();
      // its starting agent gone, the daemon now running is the agents' (after a hand-over, a new process
      // whose restore of the tabs is not a client in use)
      await waitFor(
        async () => {
          const state = readState(stateDir);
          return state?.agentsOwn === true && (await daemonAnswers(state));
        },
        20_000,
        'the daemon left to the agents',
      );
      const { pid } = readState(stateDir)!;
      expect(pid === agent.daemonPid).toBe(!hosted);
      const probe = await connectToDaemon({ stateDir, name: 'test-probe' });
      const browserPid = (await probe.client.daemon.status.query({})).browser.pid!;
      probe.close();
      // the other agent leaves without another call (after a hand-over its connection is to the old port)
      await other.close();
      await waitFor(() => !isProcessAlive(otherPid), 10_000, 'the other server to exit');
      await waitFor(
        () => !isProcessAlive(pid) && !isProcessAlive(browserPid),
        20_000,
        'the daemon and its Chromium to stop',
      );
      expect(existsSync(join(stateDir, 'daemon.json'))).toBe(false);
    });
  }

  it('an agent leaving while its hosted daemon stops (argus stop) lets it stop: no hand-over', async () => {
    const agent = await agentWithPage();
    const other = await connectToDaemon({ stateDir, name: 'other-agent' });
    try {
      await other.client.tabs.list.query({});
      await other.client.daemon.stop.mutate({});
    } finally {
      other.close();
    }
    await agent.leave();
    await waitFor(() => !isProcessAlive(agent.browserPid), 20_000, 'Chromium to exit');
    expect(existsSync(join(stateDir, 'daemon.json'))).toBe(false);
    expect(logOf()).not.toMatch(/daemon\.stop_declined|daemon\.restart/);
    expect(logOf().match(/"daemon\.started"/g)).toHaveLength(1);
  });

  it('prestarts the daemon without Chromium, launches it at the first browser call, and stops both when the agent leaves', async () => {
    const plugin = await pluginInFreshWorkspace();
    // no call yet: the daemon comes up on its own (the agent's first call will not wait for it)
    await waitFor(() => existsSync(join(stateDir, 'daemon.json')), 20_000, 'the prestarted daemon');
    const probe = await connectToDaemon({ stateDir, name: 'test-probe' });
    try {
      await waitFor(async () => daemonAnswers(readState(stateDir)!), 20_000, 'the daemon to answer');
      expect((await probe.client.daemon.status.query({})).browser.pid).toBeNull();
      expect(await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/form.html') })).toMatch(/form/);
      const browserPid = (await probe.client.daemon.status.query({})).browser.pid!;
      expect(isProcessAlive(browserPid)).toBe(true);
      const daemonPid = readState(stateDir)!.pid;
      const serverPid = plugin.transport.pid!;
      probe.close();
      await plugin.close();
      await waitFor(() => !isProcessAlive(serverPid), 10_000, 'argus mcp to exit');
      await waitFor(
        () => !isProcessAlive(daemonPid) && !isProcessAlive(browserPid),
        20_000,
        'the daemon and Chromium to exit',
      );
    } finally {
      probe.close();
    }
  });

  it('launches one Chromium for a browser call made at once, while the prestarted daemon may still load', async () => {
    // a client that answers elicitations: the server follows approvals before its first call, and
    // cues the browser's launch before it waits for that
    const plugin = await pluginInFreshWorkspace([], {}, { capabilities: { elicitation: {} } });
    try {
      // the call follows initialize at once: the server cues the loading daemon to launch Chromium
      expect(await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/form.html') })).toMatch(/form/);
      const probe = await connectToDaemon({ stateDir, name: 'test-probe' });
      try {
        const { browser } = await probe.client.daemon.status.query({});
        expect(browser).toMatchObject({ running: true, launches: 1 });
        expect(isProcessAlive(browser.pid!)).toBe(true);
      } finally {
        probe.close();
      }
    } finally {
      await plugin.close();
    }
  });

  it('launches no Chromium for a first call that needs none', async () => {
    const plugin = await pluginInFreshWorkspace();
    try {
      await ok(plugin.client, 'argus_inbox');
      const probe = await connectToDaemon({ stateDir, name: 'test-probe' });
      try {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect((await probe.client.daemon.status.query({})).browser).toMatchObject({ pid: null, launches: 0 });
      } finally {
        probe.close();
      }
    } finally {
      await plugin.close();
    }
  });

  it('with ARGUS_PRELAUNCH=0 starts nothing until the first call', async () => {
    const plugin = await pluginInFreshWorkspace([], { ARGUS_PRELAUNCH: '0' });
    try {
      expect((await plugin.client.listTools()).tools.length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(existsSync(join(stateDir, 'daemon.json'))).toBe(false);
    } finally {
      await plugin.close();
    }
  });

  for (const hosted of [true, false]) {
    const how = hosted
      ? 'a hosted daemon adopts the Chromium argus-mcp launched at start'
      : 'argus-mcp hands a daemon process the Chromium it launched';
    it(`with ARGUS_PRELAUNCH=browser, ${how}, and both stop when the agent leaves`, async () => {
      const plugin = await pluginInFreshWorkspace([], {
        ARGUS_PRELAUNCH: 'browser',
        ...(hosted ? {} : { ARGUS_MCP_DAEMON: 'process' }),
      });
      await waitFor(() => existsSync(join(stateDir, 'daemon.json')), 20_000, 'the prestarted daemon');
      const probe = await connectToDaemon({ stateDir, name: 'test-probe' });
      try {
        // no call yet: the browser is up, launched by argus-mcp's entry
        await waitFor(
          async () => (await probe.client.daemon.status.query({})).browser.running,
          30_000,
          'the early browser adopted',
        );
        const { pid: browserPid, launches } = (await probe.client.daemon.status.query({})).browser;
        expect(launches).toBe(1);
        const daemonPid = readState(stateDir)!.pid;
        const parent = parentOf(browserPid!);
        // hosted: the daemon is the server itself; a daemon process is not Chromium's parent
        if (hosted) expect(daemonPid).toBe(plugin.transport.pid);
        else expect(parent).not.toBe(daemonPid);
        expect(await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/form.html') })).toMatch(/form/);
        expect((await probe.client.daemon.status.query({})).browser).toMatchObject({ pid: browserPid, launches: 1 });
        probe.close();
        await plugin.close();
        await waitFor(
          () => !isProcessAlive(daemonPid) && !isProcessAlive(browserPid!),
          20_000,
          'the daemon and Chromium to exit',
        );
      } finally {
        probe.close();
      }
    });
  }
});
