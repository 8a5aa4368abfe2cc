import type { Handlers } from '@argus/protocol';
import { research } from '@argus/providers';
import { bundleTarget, exportBundle } from '../bundle-export.js';
import type { Services } from '../services.js';

/** Research bundles: search, fetch under the caller's policy, deduplicate, cite. */
export function webResearchHandlers(services: Services): Pick<Handlers['web'], 'research'> {
  const { web } = services;
  return {
    research: async (input, ctx) => {
      // a --out that cannot be written is refused before the run, not after it
      if (input.out !== undefined) bundleTarget(services, ctx, input.out);
      const result = await research(
        {
          http: web.http,
          resilience: web.resilience,
          fetcher: web.fetcher,
          store: web.artifacts,
          settings: web.searchSettings(),
        },
        input.topic,
        {
          policy: web.policyFor(ctx),
          engine: input.engine,
          limit: input.limit,
          fetch: input.fetch,
          since: input.since,
          timeoutMs: input.timeoutMs,
          signal: ctx.signal,
        },
      );
      const out = input.out === undefined ? null : await exportBundle(services, ctx, result.bundle.dir, input.out);
      return {
        id: result.bundle.id,
        dir: result.bundle.dir,
        out,
        topic: result.topic,
        engine: result.engine,
        ...result.counts,
        timedOut: result.timedOut,
        warnings: result.warnings,
        sources: result.records
          .filter((record) => record.outcome === 'source' && record.page !== null)
          .map((record) => ({
            n: record.source ?? 0,
            title: record.page?.title ?? null,
            url: record.page?.finalUrl ?? record.url,
          })),
        report: result.report,
      };
    },
  };
}
