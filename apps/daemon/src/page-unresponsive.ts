import { ArgusError } from '@argus/protocol';
import type { Page, PageUnresponsiveError } from '@argus/cdp';

/** The error a command on a tab whose main thread is stuck gets: what happened and how to get out. */
export function unresponsive(error: PageUnresponsiveError, page: Page | undefined): ArgusError {
  const where = page ? `Tab ${page.id} (${page.url})` : 'The page';
  return new ArgusError(
    'page_unresponsive',
    `${where} is not answering: a script on it has kept its main thread busy for ${Math.max(1, Math.round(error.silentMs / 1000))} s (an endless loop?). ` +
      '`argus goto <url>` stops the script (Runtime.terminateExecution) and loads another page; `argus closetab` closes the tab. (`argus reload` loads the same page again, and a loop that runs as the page loads runs again.) Other tabs are not affected.',
    { cause: error, details: { tab: page?.id, silentMs: Math.round(error.silentMs) } },
  );
}
