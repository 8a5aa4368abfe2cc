import type { Handlers, Manifest, OutputOf } from '@argus/protocol';
import { formatAxTree } from '../ax-text.js';
import { DATA_FN, FORMS_FN, LINKS_FN, MEDIA_FN } from '../page-reads.js';
import { runInPage } from '../page-eval.js';
import type { Services } from '../services.js';

type Out<K extends keyof Manifest['read']> = OutputOf<Manifest['read'][K]>;
type FormOut = Out<'forms'>['forms'][number];
type PageField = Omit<FormOut['fields'][number], 'ref'> & { walkerId: number | null };
type FormsResult = { token: string; forms: Array<Omit<FormOut, 'fields'> & { fields: PageField[] }> };

/** With none of the flags set, everything is wanted. */
function wanted<K extends string>(flags: Record<K, boolean>): Record<K, boolean> {
  const any = Object.values(flags).some(Boolean);
  return Object.fromEntries(Object.entries(flags).map(([key, value]) => [key, !any || Boolean(value)])) as Record<K, boolean>;
}

export function readHandlers(services: Services): Handlers['read'] {
  const { manager } = services;
  return {
    links: (input) =>
      manager.onTab(input.tab, (page) =>
        runInPage<Out<'links'>>(page, manager.engine(page), input.within, LINKS_FN, [input.maxItems, input.filter ?? '']),
      ),
    forms: (input) =>
      manager.onTab(input.tab, async (page) => {
        const engine = manager.engine(page);
        // An interactive snapshot mints (or keeps) the refs of every field; the page function then
        // reports the walker id of each field, which the ref registry maps back to its ref.
        await engine.snapshot({ interactive: true, ...(input.within ? { scope: input.within } : {}) });
        const scope = input.within ? await engine.resolve(input.within) : undefined;
        const result = scope ? await page.callOn<FormsResult>(scope.objectId, FORMS_FN, [], scope.session) : await runInPage<FormsResult>(page, engine, undefined, FORMS_FN);
        const frameId = scope?.frameId ?? page.mainFrameId;
        return {
          forms: result.forms.map((form) => ({
            ...form,
            fields: form.fields.map(({ walkerId, ...field }) => ({
              ...field,
              ref: walkerId === null ? null : (engine.refs.lookup(frameId, result.token, walkerId) ?? null),
            })),
          })),
        };
      }),
    accessibility: (input) =>
      manager.onTab(input.tab, async (page) => {
        const { nodes } = await page.session.send('Accessibility.getFullAXTree', {});
        return formatAxTree(nodes, { all: input.all, maxChars: input.maxChars, ...(input.depth === undefined ? {} : { depth: input.depth }) });
      }),
    media: (input) =>
      manager.onTab(input.tab, (page) =>
        runInPage<Out<'media'>>(page, manager.engine(page), undefined, MEDIA_FN, [wanted({ images: input.images, videos: input.videos, audio: input.audio }), input.maxItems]),
      ),
    data: (input) =>
      manager.onTab(input.tab, (page) =>
        runInPage<Out<'data'>>(
          page,
          manager.engine(page),
          undefined,
          DATA_FN,
          [wanted({ jsonld: input.jsonld, og: input.og, meta: input.meta, twitter: input.twitter })],
        ),
      ),
    title: (input) => manager.onTab(input.tab, async (page) => ({ title: await page.readTitle() })),
  };
}
