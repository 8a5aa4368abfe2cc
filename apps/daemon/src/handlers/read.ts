import type { Page } from '@argus/cdp';
import type { Handlers } from '@argus/protocol';
import { DATA, DOCUMENT_TITLE, FORMS, LINKS, MEDIA } from '@argus/snapshot';
import { formatAxTree } from '../ax-text.js';
import { withDialogs } from '../capture-entries.js';
import { frameSession, inDocument, selectedFrameRoot } from '../frame-scope.js';
import { callOnElement, evaluateInPage, runInPage } from '../page-eval.js';
import type { Services } from '../services.js';

/**
 * The AX tree of the top document, or of the selected frame: a same-process frame by its frameId on
 * the page's session, an out-of-process one on its own session.
 */
async function axTree(page: Page, frameId: string | undefined) {
  if (!frameId) return page.session.send('Accessibility.getFullAXTree', {});
  const session = frameSession(page, frameId);
  return session === page.session
    ? session.send('Accessibility.getFullAXTree', { frameId })
    : session.send('Accessibility.getFullAXTree', {});
}

/** With none of the flags set, everything is wanted. */
function wanted<K extends string>(flags: Record<K, boolean>): Record<K, boolean> {
  const any = Object.values(flags).some(Boolean);
  return Object.fromEntries(Object.entries(flags).map(([key, value]) => [key, !any || Boolean(value)])) as Record<
    K,
    boolean
  >;
}

export function readHandlers(
  services: Services,
): Pick<Handlers['read'], 'links' | 'forms' | 'accessibility' | 'media' | 'data' | 'title'> {
  const { manager } = services;
  const frameRoot = (page: Page) => selectedFrameRoot(manager, page);
  return {
    // every read carries the dialogs since the previous reply: an agent often reads right after an action
    links: (input) =>
      manager.onTab(input.tab, async (page) =>
        withDialogs(
          page,
          await runInPage(
            page,
            manager.engine(page),
            input.within ?? frameRoot(page),
            LINKS,
            input.maxItems,
            input.filter ?? '',
          ),
        ),
      ),
    forms: (input) =>
      manager.onTab(input.tab, async (page) => {
        const engine = manager.engine(page);
        // An interactive snapshot mints (or keeps) the refs of every field; the page function then
        // reports the walker id of each field, which the ref registry maps back to its ref.
        const within = input.within ?? frameRoot(page);
        await engine.snapshot({ interactive: true, ...(within ? { scope: within } : {}) });
        const scope = within ? await engine.resolve(within) : undefined;
        const result = scope
          ? await callOnElement(page, scope, FORMS)
          : await runInPage(page, engine, undefined, FORMS);
        const frameId = scope?.frameId ?? page.mainFrameId;
        return withDialogs(page, {
          forms: result.forms.map((form) => ({
            ...form,
            fields: form.fields.map(({ walkerId, ...field }) => ({
              ...field,
              ref: walkerId === null ? null : (engine.refs.lookup(frameId, result.token, walkerId) ?? null),
            })),
          })),
        });
      }),
    accessibility: (input) =>
      manager.onTab(input.tab, async (page) => {
        const { nodes } = await axTree(page, await manager.frameInUse(page));
        return withDialogs(
          page,
          formatAxTree(nodes, {
            all: input.all,
            maxChars: input.maxChars,
            ...(input.depth === undefined ? {} : { depth: input.depth }),
          }),
        );
      }),
    media: (input) =>
      manager.onTab(input.tab, async (page) =>
        withDialogs(
          page,
          await runInPage(
            page,
            manager.engine(page),
            frameRoot(page),
            MEDIA,
            wanted({ images: input.images, videos: input.videos, audio: input.audio }),
            input.maxItems,
          ),
        ),
      ),
    data: (input) =>
      manager.onTab(input.tab, async (page) =>
        withDialogs(
          page,
          await runInPage(
            page,
            manager.engine(page),
            frameRoot(page),
            DATA,
            wanted({ jsonld: input.jsonld, og: input.og, meta: input.meta, twitter: input.twitter }),
          ),
        ),
      ),
    title: (input) =>
      manager.onTab(input.tab, async (page) => {
        // the chosen frame's document's (the tab's title is the top document's, read as it settles)
        const title = manager.selectedFrame(page)
          ? await inDocument(manager, page, 'isolated', (where) => evaluateInPage(page, DOCUMENT_TITLE, [], where))
          : await page.readTitle();
        return withDialogs(page, { title });
      }),
  };
}
