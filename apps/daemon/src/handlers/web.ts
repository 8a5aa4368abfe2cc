import type { Handlers } from '@argus/protocol';
import type { Services } from '../services.js';

/** Web providers: the content of pages without driving the caller's tabs (packages/providers). */
export function webHandlers(services: Services): Pick<Handlers['web'], 'fetch'> {
  const { web } = services;
  return {
    fetch: async (input, ctx) => {
      const tier = input.browser ? 'browser' : input.http ? 'http' : 'auto';
      const page = await web.fetcher.fetch(input.url, {
        policy: web.policyFor(ctx),
        tier,
        timeoutMs: input.timeoutMs,
        ...(input.selector === undefined ? {} : { selector: input.selector }),
        ...(input.maxBytes === undefined ? {} : { maxBytes: input.maxBytes }),
        ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
      });
      return { ...page, html: input.format === 'html' ? page.html : null, format: input.format };
    },
  };
}
