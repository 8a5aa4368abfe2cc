import type { Handlers } from '@argus/protocol';
import { searchWeb } from '@argus/providers';
import type { Services } from '../services.js';

/** Web search through the configured engine, under that engine's breaker and limits. */
export function webSearchHandlers(services: Services): Pick<Handlers['web'], 'search'> {
  const { web } = services;
  return {
    search: (input, ctx) =>
      searchWeb(web.http, web.resilience, web.searchSettings(), input.query, {
        engine: input.engine,
        limit: input.limit,
        since: input.since,
        timeoutMs: input.timeoutMs,
        signal: ctx.signal,
      }),
  };
}
