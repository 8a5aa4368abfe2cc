import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, startingNotice, waitForDaemonExit, withDaemon } from './connection.js';
import { ensureBrowser } from './install-browser.js';
import { findRef } from '@argus/protocol/snapshot-refs';

/**
 * The README's main job: start the daemon, open the bundled demo page in headless Chromium, print
 * its snapshot, fill and click by ref, print the resulting text. It works in a tab of its own, never
 * in one the user has (a daemon may already run with the user's pages): the tab is closed after and
 * the user's active tab made active again. Stops the daemon if it started it.
 */
export async function runDemo(out: (line: string) => void, err: (line: string) => void): Promise<void> {
  await ensureBrowser(err);
  // file: URLs are off for agents; load-html renders a local file, and the temp dir is always in the
  // allowed area wherever argus is installed
  const dir = mkdtempSync(join(tmpdir(), 'argus-demo-'));
  const page = join(dir, 'demo.html');
  copyFileSync(join(dirname(fileURLToPath(import.meta.url)), 'demo.html'), page);
  const started = performance.now();
  const { connection, value: status } = await withDaemon(
    async (connection) => {
      const status = (await call(connection, 'daemon.status', 'query', {})) as {
        pid: number;
        stateDir: string;
        activeTab: string | null;
      };
      out(`daemon: pid ${status.pid}, state in ${status.stateDir}${connection.started ? ' (started now)' : ''}`);
      return status;
    },
    startingNotice('page.goto', err),
  );
  let tab: { id: string; index: number; shortId: string } | undefined;
  try {
    tab = (await call(connection, 'tabs.open', 'mutation', {})) as { id: string; index: number; shortId: string };
    out(`demo tab: ${tab.shortId} (a new tab: your tabs are left alone)`);
    const inTab = { tab: tab.id };
    const nav = (await call(connection, 'dom.loadHtml', 'mutation', { file: page, ...inTab })) as {
      title: string;
      url: string;
    };
    out(`opened: ${nav.title} (${nav.url})`);
    const snap = (await call(connection, 'snapshot.take', 'mutation', { interactive: true, ...inTab })) as {
      text: string;
    };
    out('\n$ argus snapshot -i');
    out(snap.text);
    const ref = (label: RegExp) => {
      const found = findRef(snap.text, label);
      if (!found) throw new Error(`The demo page's snapshot has no ${label} element:\n${snap.text}`);
      return found;
    };
    const input = ref(/textbox "Your name"/);
    const button = ref(/button "Say hello"/);
    out(`\n$ argus fill ${input} "Ada"`);
    await call(connection, 'input.fill', 'mutation', { target: input, text: 'Ada', ...inTab });
    out(`$ argus click ${button}`);
    const clicked = (await call(connection, 'input.click', 'mutation', { target: button, ...inTab })) as {
      element: string;
    };
    out(`clicked ${clicked.element}`);
    const text = (await call(connection, 'read.text', 'query', { target: '#greeting', ...inTab })) as {
      text: string;
    };
    out('\n$ argus text "#greeting"');
    out(text.text);
    out(`\ndemo finished in ${Math.round(performance.now() - started)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (connection.started) {
      await call(connection, 'daemon.stop', 'mutation', {}).catch(() => undefined);
      await waitForDaemonExit(connection.state.pid, out);
    } else if (tab) {
      const { id, shortId } = tab;
      const closed = await call(connection, 'tabs.close', 'mutation', { id }).then(
        () => true,
        () => false,
      );
      // the tab that was active before the demo is active again
      if (closed && status.activeTab)
        await call(connection, 'tabs.select', 'mutation', { id: status.activeTab }).catch(() => undefined);
      out(closed ? `closed the demo tab ${shortId}` : `left the demo tab ${shortId} open (closing it failed)`);
    }
  }
}
