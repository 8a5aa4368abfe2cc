import { join } from 'node:path';
import { type Page, isFailedRequest, responseBody } from '@argus/cdp';
import { ArgusError, type Handlers } from '@argus/protocol';
import { confinePath, requireScope } from '@argus/security';
import { consoleEntry, dialogEntry, networkEntry, shownHeaders, withDialogs } from '../capture-entries.js';
import { eventStream } from '../event-stream.js';
import { type OutputTarget, openTarget, outputTarget, stamp, writeTarget } from '../output-path.js';
import type { Services } from '../services.js';
import { captureWhenHidden } from '../screenshot.js';

const since = (value: number | undefined) => (value === undefined ? 0 : value + 1);

/** The answers armed for the tab's next dialogs, in the order they will be used. */
function armedView(page: Page) {
  return page.capture
    .armedAnswers()
    .map((armed) => ({ accept: armed.accept, promptText: armed.promptText ?? null, expiresAt: armed.expiresAt }));
}

export function captureHandlers(services: Services): Handlers['capture'] {
  const { manager } = services;
  /** The tab for a stream: resolved directly, never through the tab's queue (a stream would hold it). */
  const streamPage = (tab: string | undefined) =>
    manager.page(tab).catch((error: unknown) => {
      throw manager.translate(error);
    });
  return {
    console: (input) =>
      manager.onTab(input.tab, async (page) => {
        const buffer = page.capture.console;
        const matching = buffer
          .entries(since(input.since))
          .filter(({ item }) => !input.errors || item.level === 'error');
        const shown = matching.slice(-input.limit);
        const lastSeq = buffer.seq - 1;
        if (input.clear) buffer.clear();
        // with the dialogs since the previous reply: a console read is often an agent's next step
        return withDialogs(page, {
          messages: shown.map(({ seq, item }) => consoleEntry(item, seq)),
          lastSeq,
          omitted: matching.length - shown.length,
          cleared: input.clear,
        });
      }),

    async *consoleFollow(input, ctx) {
      const page = await streamPage(input.tab);
      const wanted = (level: string) => !input.errors || level === 'error';
      yield* eventStream({
        signal: ctx.signal,
        start: (push, end) => {
          if (input.since !== undefined) {
            for (const { seq, item } of page.capture.console.entries(since(input.since)))
              if (wanted(item.level)) push(consoleEntry(item, seq));
          }
          const off = page.capture.onConsole((record, seq) => {
            if (wanted(record.level)) push(consoleEntry(record, seq));
          });
          const offDetach = page.session.onDetach(end);
          return () => {
            off();
            offDetach();
          };
        },
      });
    },

    network: (input) =>
      manager.onTab(input.tab, async (page) => {
        const buffer = page.network.requests;
        const matching = buffer
          .entries(since(input.since))
          .filter(
            ({ item }) =>
              (!input.failed || isFailedRequest(item)) &&
              (input.filter === undefined || item.url.includes(input.filter)),
          );
        const shown = matching.slice(-input.limit);
        const lastSeq = buffer.seq - 1;
        if (input.clear) page.network.clear();
        return withDialogs(page, {
          requests: shown.map(({ seq, item }) => networkEntry(item, seq)),
          lastSeq,
          omitted: matching.length - shown.length,
          cleared: input.clear,
        });
      }),

    async *networkFollow(input, ctx) {
      const page = await streamPage(input.tab);
      yield* eventStream({
        signal: ctx.signal,
        start: (push, end) => {
          const off = page.network.onSettled((record, seq) => {
            if (input.failed && !isFailedRequest(record)) return;
            if (input.filter !== undefined && !record.url.includes(input.filter)) return;
            push(networkEntry(record, seq));
          });
          const offDetach = page.session.onDetach(end);
          return () => {
            off();
            offDetach();
          };
        },
      });
    },

    networkGet: async (input, ctx) => {
      if (input.reveal)
        requireScope(ctx, 'admin', 'Revealing credential headers', 'Drop --reveal to see the other headers.');
      return manager.onTab(input.tab, async (page) => {
        const buffer = page.network.requests;
        const record = buffer.at(input.id);
        if (!record) {
          const first = buffer.seq - buffer.size;
          const range = buffer.size > 0 ? `ids ${first}-${buffer.seq - 1} are buffered` : 'no request is buffered';
          throw new ArgusError(
            'invalid_input',
            `No request ${input.id} in this tab (${range}). Run \`argus network\` to list requests.`,
          );
        }
        const request = shownHeaders(record.requestHeaders, input.reveal);
        const response = shownHeaders(record.responseHeaders, input.reveal);
        const body = input.body ? await responseBody(record, input.maxBytes) : undefined;
        // with the dialogs since the previous reply, as the request list
        return withDialogs(page, {
          ...networkEntry(record, input.id),
          requestHeaders: request.headers,
          responseHeaders: response.headers,
          redacted: request.redacted || response.redacted,
          body: body?.body ?? null,
          base64: body?.base64 ?? false,
          bodyBytes: body?.bytes ?? null,
          truncated: body?.truncated ?? false,
          bodyNote: body?.note ?? null,
        });
      });
    },

    dialogs: (input, ctx) => {
      // a read token lists dialogs; dropping the answers changes how the next ones are answered
      if (input.disarm)
        requireScope(ctx, 'write', 'Dropping armed dialog answers', 'Drop --disarm to only list the dialogs.');
      return manager.onTab(input.tab, async (page) => {
        const buffer = page.capture.dialogs;
        const dialogs = buffer.entries(since(input.since)).map(({ seq, item }) => dialogEntry(item, seq));
        const lastSeq = buffer.seq - 1;
        // the caller has them all now: no later reply reports them again
        page.capture.markReported();
        if (input.clear) buffer.clear();
        const disarmed = input.disarm ? page.capture.disarmDialogs() : 0;
        return { dialogs, lastSeq, armed: armedView(page), disarmed, cleared: input.clear };
      });
    },

    dialogAccept: (input) =>
      manager.onTab(input.tab, async (page) => {
        page.capture.armDialog({ accept: true, ...(input.text === undefined ? {} : { promptText: input.text }) });
        return { armed: armedView(page) };
      }),

    dialogDismiss: (input) =>
      manager.onTab(input.tab, async (page) => {
        page.capture.armDialog({ accept: false });
        return { armed: armedView(page) };
      }),

    debugTrace: (input, ctx) =>
      manager.onTab(input.tab, async (page) => {
        const bundleTarget: OutputTarget = input.path
          ? outputTarget(services, ctx, input.path, { stem: 'trace', ext: 'json', overwrite: input.overwrite })
          : { path: join(services.stateDir, 'traces', `trace-${stamp()}.json`), policy: undefined, overwrite: true };
        const shotName = `${bundleTarget.path.replace(/\.json$/i, '')}.png`;
        const shotTarget: OutputTarget = {
          ...bundleTarget,
          path: bundleTarget.policy ? confinePath(shotName, bundleTarget.policy) : shotName,
        };
        // claim the bundle's name first: an existing file is refused before anything is written
        const bundleFile = await openTarget(bundleTarget, 0o600);
        const path = bundleTarget.path;
        try {
          let screenshot: string | null = null;
          let screenshotError: string | null = null;
          try {
            await writeTarget(
              shotTarget,
              (await page.screenshot({ whenHidden: captureWhenHidden(services) })).data,
              0o600,
            );
            screenshot = shotTarget.path;
          } catch (error) {
            screenshotError = manager.translate(error, page).message;
          }
          const title = await page.readTitle();
          const consoleEntries = page.capture.console.entries().map(({ seq, item }) => consoleEntry(item, seq));
          const pageErrors = consoleEntries.filter((entry) => entry.source === 'exception');
          const requests = page.network.requests.entries().map(({ seq, item }) => ({
            ...networkEntry(item, seq),
            // a bug report is shared: credentials are always redacted here
            requestHeaders: shownHeaders(item.requestHeaders, false).headers,
            responseHeaders: shownHeaders(item.responseHeaders, false).headers,
          }));
          const dialogs = page.capture.dialogs.entries().map(({ seq, item }) => dialogEntry(item, seq));
          const bundle = {
            argus: { version: services.version, kind: 'debug-trace' },
            createdAt: new Date().toISOString(),
            tab: page.id,
            url: page.url,
            title,
            screenshot,
            screenshotError,
            pageErrors,
            console: consoleEntries,
            network: requests,
            dialogs,
          };
          await bundleFile.handle.writeFile(`${JSON.stringify(bundle, null, 2)}\n`);
          await bundleFile.commit();
          return {
            path,
            screenshot,
            url: page.url,
            title,
            console: consoleEntries.length,
            pageErrors: pageErrors.length,
            network: requests.length,
            failedRequests: page.network.requests.entries().filter(({ item }) => isFailedRequest(item)).length,
            dialogs: dialogs.length,
          };
        } finally {
          // a no-op after commit; removes the temp file on every failure
          await bundleFile.abort();
        }
      }),
  };
}
