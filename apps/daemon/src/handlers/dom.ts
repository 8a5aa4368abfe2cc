import { statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Page } from '@argus/cdp';
import { ArgusError, type Handlers } from '@argus/protocol';
import { confinePath } from '@argus/security';
import { BODY_TEXT, CLEANUP, IS_FRAME, RESTORE_STYLE, SET_STYLE, diffLines } from '@argus/snapshot';
import { inDocument } from '../frame-scope.js';
import { callOnElement, evaluateInPage } from '../page-eval.js';
import type { Services } from '../services.js';
import type { TabState } from '../tab-state.js';

export function domHandlers(services: Services): Handlers['dom'] {
  const { manager } = services;
  return {
    loadHtml: (input, ctx) =>
      manager.onTab(input.tab, async (page) => {
        const path = confinePath(input.file, services.access.paths(ctx));
        if (!statSync(path, { throwIfNoEntry: false })?.isFile())
          throw new ArgusError('invalid_input', `${input.file} is not a file (resolved to ${path}).`);
        const nav = await page.navigate(pathToFileURL(path).href, { waitUntil: 'load', timeoutMs: input.timeoutMs });
        // the frame choice ends with the page it was made in: the reply says so
        return manager.frameChoices.end(page, { url: nav.url, title: nav.title });
      }),
    style: (input) =>
      manager.onTab(input.tab, async (page) => {
        if (input.undo)
          return {
            element: null,
            before: null,
            computed: null,
            undone: await undoStyles(page, manager.tabState(page)),
          };
        if (!input.target || !input.property || input.value === undefined) {
          throw new ArgusError(
            'invalid_input',
            'Give an element, a property and a value (`argus style e5 display none`), or --undo.',
          );
        }
        const handle = await manager.engine(page).resolve(input.target);
        const property = input.property.toLowerCase().startsWith('--') ? input.property : input.property.toLowerCase();
        const result = await callOnElement(page, handle, SET_STYLE, property, input.value, input.important);
        if (!result.ok)
          throw new ArgusError(
            'invalid_input',
            `Chrome rejected ${property}: ${input.value} (unknown property or invalid value).`,
          );
        manager.tabState(page).styleHistory.push({
          session: handle.session,
          backendNodeId: handle.backendNodeId,
          property,
          value: result.before.value,
          priority: result.before.priority,
          epoch: page.epoch,
        });
        return {
          element: handle.label,
          before: result.before.value || null,
          computed: result.computed ?? null,
          undone: 0,
        };
      }),
    cleanup: (input) =>
      manager.onTab(input.tab, async (page) => {
        const none = !input.ads && !input.cookies && !input.sticky;
        const all = input.all || none;
        const kinds = { ads: all || input.ads, cookies: all || input.cookies, sticky: all || input.sticky };
        // in the frame chosen with `argus frame`, else the top document
        return inDocument(manager, page, 'main', async (where) => {
          // cookie banners first: they are usually fixed too, and should count as what they are
          const first = await evaluateInPage(page, CLEANUP, [{ ...kinds, sticky: false }], where);
          const second = kinds.sticky
            ? await evaluateInPage(page, CLEANUP, [{ ads: false, cookies: false, sticky: true }], where)
            : { sticky: 0 };
          return { ads: first.ads, cookies: first.cookies, sticky: second.sticky };
        });
      }),
    diff: async (input, ctx) => {
      services.access.checkUrl(input.from, ctx);
      services.access.checkUrl(input.to, ctx);
      const [before, after] = [
        await pageText(manager, input.from, input.timeoutMs),
        await pageText(manager, input.to, input.timeoutMs),
      ];
      const lines = diffLines(before, after);
      const added = lines.filter((line) => line.op === '+').length;
      const removed = lines.filter((line) => line.op === '-').length;
      let diff = lines.map((line) => `${line.op === '~' ? '+' : line.op} ${line.line}`).join('\n');
      const truncated = diff.length > input.maxChars;
      if (truncated) diff = diff.slice(0, input.maxChars);
      return {
        diff: diff || '(the visible texts are identical)',
        added,
        removed,
        identical: lines.length === 0,
        truncated,
      };
    },
    frame: (input) =>
      manager.onTab(input.tab, async (page) => {
        const chosen = [input.target, input.name, input.url, input.main || undefined].filter(
          (value) => value !== undefined,
        );
        if (chosen.length !== 1)
          throw new ArgusError(
            'invalid_input',
            'Give exactly one of: an iframe (ref or selector), --name, --url, or main.',
          );
        // a choice whose frame is gone is no place to resolve the next one in: the top document is
        if (manager.frameChoices.lostError(page)) manager.frameChoices.clear(page);
        let frameId: string;
        if (input.main || input.target === 'main') frameId = page.mainFrameId;
        else if (input.name !== undefined || input.url !== undefined) {
          const frames = page.frames.all().filter((frame) => frame.id !== page.mainFrameId);
          const found =
            input.name !== undefined
              ? frames.find((frame) => frame.name === input.name)
              : frames.find((frame) => frame.url.includes(input.url as string));
          if (!found) {
            const known = frames.map((frame) => `${frame.name || '(no name)'} ${frame.url}`).join('; ') || '(none)';
            throw new ArgusError(
              'element_not_found',
              `No frame ${input.name !== undefined ? `named "${input.name}"` : `with a URL containing "${input.url}"`}. Frames of this tab: ${known}.`,
              // frame names and URLs are the page's: an agent reads the message as page content
              { details: { frames: known } },
            );
          }
          frameId = found.id;
        } else {
          const handle = await manager.engine(page).resolve(input.target as string);
          const isFrame = await callOnElement(page, handle, IS_FRAME);
          const { node } = await handle.session.send('DOM.describeNode', { objectId: handle.objectId });
          if (isFrame && node.frameId) frameId = node.frameId;
          else if (handle.frameId !== page.mainFrameId)
            frameId = handle.frameId; // an element inside a frame (e.g. ref f1e2) selects its frame
          else
            throw new ArgusError(
              'invalid_input',
              `${handle.label} is not an <iframe>. Pass the iframe element, or a ref of an element inside the frame.`,
              { details: { element: handle.label } },
            );
        }
        if (frameId === page.mainFrameId) manager.frameChoices.clear(page);
        else {
          // how it was chosen, as given: named in the error if the page removes the iframe for good
          const given =
            input.target !== undefined
              ? { target: input.target }
              : input.name !== undefined
                ? { name: input.name }
                : { url: input.url as string };
          await manager.frameChoices.choose(page, frameId, given);
        }
        const frame = page.frames.get(frameId);
        return { frameId, url: frame?.url ?? page.url, name: frame?.name ?? '', main: frameId === page.mainFrameId };
      }),
  };
}

async function undoStyles(page: Page, state: TabState): Promise<number> {
  const history = state.styleHistory;
  state.styleHistory = [];
  let undone = 0;
  for (const change of history.reverse()) {
    if (change.epoch !== page.epoch) continue; // the page navigated: its elements are gone
    try {
      const { object } = await change.session.send('DOM.resolveNode', { backendNodeId: change.backendNodeId });
      if (!object.objectId) continue;
      await callOnElement(
        page,
        { objectId: object.objectId, session: change.session },
        RESTORE_STYLE,
        change.property,
        change.value,
        change.priority,
      );
      await change.session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => undefined);
      undone++;
    } catch {
      // the element was removed since: nothing to restore
    }
  }
  return undone;
}

/** Loads a URL in a temporary tab and returns its visible text lines; the tab is closed on every path. */
async function pageText(manager: Services['manager'], url: string, timeoutMs: number): Promise<string[]> {
  const temp = await manager.structural((browser) => browser.newPage());
  try {
    await temp.navigate(url, { waitUntil: 'load', timeoutMs });
    const text = await evaluateInPage(temp, BODY_TEXT, []);
    return text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  } catch (error) {
    throw manager.translate(error, temp);
  } finally {
    await manager.structural((browser) => browser.closePage(temp.id)).catch(() => undefined);
  }
}
