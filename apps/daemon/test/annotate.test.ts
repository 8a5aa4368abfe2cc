import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

// Issue 14: `screenshot --annotate` on a page with no snapshot yet takes one, so the labels are drawn.

describe('screenshot --annotate without a snapshot', () => {
  const h = useHarness();

  it('takes an interactive snapshot first, draws its refs, and says so', async () => {
    const tab = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/buttons.html') })).id;
    const plain = await h.client.page.screenshot.mutate({ tab, base64: true });
    const annotated = await h.client.page.screenshot.mutate({ tab, base64: true, annotate: true });
    expect(annotated.annotated?.snapshotTaken).toBe(true);
    expect(annotated.annotated?.refs).toBeGreaterThan(0);
    // the labels are on the image: it differs from the capture without them
    expect(annotated.base64).not.toBe(plain.base64);
    // the overlay went with the capture
    expect((await h.client.page.screenshot.mutate({ tab, base64: true })).base64).toBe(plain.base64);

    // refs of the current document are reused; a navigation makes them stale, so a new snapshot is taken
    const again = await h.client.page.screenshot.mutate({ tab, base64: true, annotate: true });
    expect(again.annotated).toEqual({ refs: annotated.annotated?.refs, snapshotTaken: false });
    await h.client.page.goto.mutate({ tab, url: h.server.urlFor('/form.html') });
    const fresh = await h.client.page.screenshot.mutate({ tab, annotate: true, base64: true });
    expect(fresh.annotated?.snapshotTaken).toBe(true);
    expect(fresh.annotated?.refs).toBeGreaterThan(0);
  });
});
