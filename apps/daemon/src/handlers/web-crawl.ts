import type { Handlers } from '@argus/protocol';
import { type ArtifactManifest, crawl } from '@argus/providers';
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
): Pick<Handlers['web'], 'crawl' | 'artifacts' | 'artifactShow' | 'artifactCleanup'> {
  const { web } = services;
  return {
    crawl: async (input, ctx) => {
      const result = await crawl(web.http, web.artifacts, input.urls, {
        policy: web.policyFor(ctx),
        depth: input.depth,
        maxPages: input.maxPages,
        sameSite: input.sameSite,
        robots: input.robots,
        sitemap: input.sitemap,
        concurrency: input.concurrency,
        delayMs: input.delayMs,
        dfs: input.dfs,
        ...(input.include === undefined ? {} : { include: input.include }),
        ...(input.exclude === undefined ? {} : { exclude: input.exclude }),
        ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
      });
      const { bundle, warnings, ...counts } = result;
      return { id: bundle.id, dir: bundle.dir, warnings, ...counts };
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
