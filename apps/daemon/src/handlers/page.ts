import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ArgusError, EVAL_SOURCE_MAX, type Handlers } from '@argus/protocol';
import { type PathPolicy, confinePath } from '@argus/security';
import { SCROLL_BY, SCROLL_POSITION, scrollIntoView } from '@argus/snapshot';
import { withChallenge } from '../challenge.js';
import { withDialogs } from '../capture-entries.js';
import { evaluateInPage } from '../page-eval.js';
import type { Services } from '../services.js';
import { takeScreenshot } from '../screenshot.js';
import { waitFor } from '../wait.js';
import { downloadsFor } from '../downloads.js';
import { frameEvalTarget, inDocument, targetScrollPosition } from '../frame-scope.js';
import { runEval } from '../eval-script.js';
import { plainHttpHint } from '../url-hints.js';

export function pageHandlers(services: Services): Handlers['page'] {
  const { manager } = services;
  return {
    goto: (input, ctx) => {
      services.access.checkUrl(input.url, ctx);
      return manager.onTab(input.tab, async (page) => {
        const waitsForDocument = input.waitUntil !== 'none';
        const result = await page
          .navigate(input.url, {
            waitUntil: input.waitUntil,
            timeoutMs: input.timeoutMs,
            // read with the challenge check (withChallenge), in the same round trip
            readTitle: !waitsForDocument,
          })
          .catch((error: unknown) => {
            throw plainHttpHint(error, input.url);
          });
        // waitUntil none returns before the document exists: nothing to look at yet
        return withDialogs(
          page,
          manager.frameChoices.end(page, waitsForDocument ? await withChallenge(page, result) : result),
        );
      });
    },
    back: (input) =>
      manager.onTab(input.tab, async (page) =>
        withDialogs(
          page,
          manager.frameChoices.end(page, await withChallenge(page, await page.history(-1, input.timeoutMs, false))),
        ),
      ),
    forward: (input) =>
      manager.onTab(input.tab, async (page) =>
        withDialogs(
          page,
          manager.frameChoices.end(page, await withChallenge(page, await page.history(1, input.timeoutMs, false))),
        ),
      ),
    reload: (input) =>
      manager.onTab(input.tab, async (page) =>
        withDialogs(
          page,
          manager.frameChoices.end(page, await withChallenge(page, await page.reload(input.timeoutMs, false))),
        ),
      ),
    url: (input) => manager.onTab(input.tab, async (page) => withDialogs(page, { url: page.url, title: page.title })),
    focus: (input) =>
      manager.onTab(input.tab, async (page) => {
        // the window to the front (headed), and the page told it is visible and focused
        await page.session.send('Page.bringToFront', {});
        // the extension maps this to chrome.tabs.update + chrome.windows.update: the user's tab and window
        await manager.current?.activate(page.id).catch(() => undefined);
        manager.activeTab = page.id;
        return { id: page.id, url: page.url, title: page.title };
      }),
    wait: (input) =>
      manager.onTab(input.tab, async (page) =>
        withDialogs(
          page,
          await waitFor(page, manager.engine(page), input, {
            downloads: downloadsFor(manager, join(services.stateDir, 'downloads')),
            frames: manager,
          }),
        ),
      ),
    eval: (input, ctx) => {
      const source = scriptSource(input, () => services.access.paths(ctx));
      return manager.onTab(input.tab, async (page) =>
        withDialogs(
          page,
          await runEval(page, source, {
            maxChars: input.maxChars,
            timeoutMs: input.timeoutMs,
            frame: input.target ? {} : await frameEvalTarget(manager, page),
            ...(input.target ? { element: await manager.engine(page).resolve(input.target) } : {}),
          }),
        ),
      );
    },
    screenshot: (input, ctx) =>
      manager.onTab(input.tab, async (page) => {
        // the viewport, a clip or an element are what the tab shows; the whole length of the top document is no frame's
        if (input.full)
          manager.frameChoices.refuseWhileChosen(page, {
            command: 'screenshot --full',
            does: 'captures the whole top document',
            instead:
              'capture what the tab shows of the frame: `argus screenshot` (the viewport) or `--ref` an element in it',
          });
        return withDialogs(page, await takeScreenshot(services, ctx, page, manager.engine(page), input));
      }),
    scroll: (input) =>
      manager.onTab(input.tab, async (page) => {
        // to a target: its document's offsets (the frame it is in); by an offset: the chosen frame's, else the top's
        if (input.target) {
          const engine = manager.engine(page);
          await scrollIntoView(engine, input.target);
          const position = await targetScrollPosition(page, engine, input.target);
          return { scrollX: position.x, scrollY: position.y };
        }
        return inDocument(manager, page, 'main', async (where) => {
          await evaluateInPage(page, SCROLL_BY, [input.dx ?? 0, input.dy ?? null], where);
          const position = await evaluateInPage(page, SCROLL_POSITION, [], where);
          return { scrollX: position.x, scrollY: position.y };
        });
      }),
  };
}

/** The script of an `eval`: inline, or read from a file through the caller's path policy (read), asked only then. */
function scriptSource(input: { js?: string | undefined; file?: string | undefined }, paths: () => PathPolicy): string {
  if ((input.js === undefined) === (input.file === undefined))
    throw new ArgusError(
      'invalid_input',
      'Give the script inline (`argus eval "document.title"`) or as --file <path>, one of the two.',
    );
  if (input.js !== undefined) return input.js;
  const path = confinePath(input.file ?? '', paths());
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new ArgusError('invalid_input', `${input.file} is not a file (resolved to ${path}).`);
  if (stat.size > EVAL_SOURCE_MAX)
    throw new ArgusError(
      'invalid_input',
      `${input.file} is ${stat.size} bytes; eval runs scripts of at most ${EVAL_SOURCE_MAX} bytes. Load a larger one with a <script> tag from the page.`,
    );
  return readFileSync(path, 'utf8');
}
