import type { Handlers } from '@argus/protocol';
import { type ArtifactManifest, crawl } from '@argus/providers';
import { bundleTarget, exportBundle } from '../bundle-export.js';
import { eventStream } from '../event-stream.js';
import type { CrawlProgressEvent } from '../crawl-progress.js';
import type { Services } from '../services.js';

function info(manifest: ArtifactManifest) {
  return {
    id: manifest.id,
    kind: manifest.kind,
    created: manifest.created,
    expires: manifest.expires,
    files: manifest.files.length,
    bytes: manifest.files.reduce((sum, file) => sum + file.bytes, 0),
  };
}

/** Crawls into artifact bundles under the state dir, and the bundles themselves. */
export function webCrawlHandlers(
  services: Services,
): Pick<Handlers['web'], 'crawl' | 'crawlProgress' | 'artifacts' | 'artifactShow' | 'artifactCleanup'> {
  const { web } = services;
  return {
    crawl: async (input, ctx) => {
      // a --out that cannot be written is refused before the run, not after it
      if (input.out !== undefined) bundleTarget(services, ctx, input.out);
      const job = input.progress;
      const report = (progress: Omit<CrawlProgressEvent, 'finished'>, finished: boolean) => {
        if (job !== undefined) web.crawlProgress.emit(job, { ...progress, finished });
      };
      const result = await crawl(web.http, web.artifacts, input.urls, {
        onProgress: (progress) => report(progress, false),
        policy: web.policyFor(ctx),
        depth: input.depth,
        maxPages: input.maxPages,
        sameSite: input.sameSite,
        robots: input.robots,
        sitemap: input.sitemap,
        concurrency: input.concurrency,
        delayMs: input.delayMs,
        dfs: input.dfs,
        ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
        ...(input.include === undefined ? {} : { include: input.include }),
        ...(input.exclude === undefined ? {} : { exclude: input.exclude }),
        ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
      }).catch((error: unknown) => {
        report({ done: 0, queued: 0, failed: 0, skipped: 0, pagesPerSecond: 0 }, true);
        throw error;
      });
      const { bundle, warnings, errors, timedOut, ...counts } = result;
      report(counts, true);
      const out = input.out === undefined ? null : await exportBundle(services, ctx, bundle.dir, input.out);
      return { id: bundle.id, dir: bundle.dir, out, warnings, errors, timedOut, ...counts };
    },
    async *crawlProgress(input, ctx) {
      yield* eventStream<CrawlProgressEvent>({
        signal: ctx.signal,
        start: (push, end) =>
          web.crawlProgress.on(input.job, (event) => {
            push(event);
            if (event.finished) end();
          }),
      });
    },
    artifacts: () => Promise.resolve({ artifacts: web.artifacts.list().map(info) }),
    artifactShow: (input) => {
      const manifest = web.artifacts.show(input.id);
      return Promise.resolve({
        ...info(manifest),
        dir: manifest.dir,
        paths: manifest.files.map((file) => file.path),
        summary: manifest.summary,
      });
    },
    artifactCleanup: (input) => Promise.resolve({ removed: web.artifacts.cleanup({ all: !input.expired }) }),
  };
}
