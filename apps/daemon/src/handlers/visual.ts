import { join } from 'node:path';
import { type Page, ProtocolError, captureImage, drainStream } from '@argus/cdp';
import { ArgusError, type Handlers } from '@argus/protocol';
import { type OutputTarget, openTarget, outputTarget, stamp, writeTarget } from '../output-path.js';
import { PAPER, parseMargins } from '../pdf-options.js';
import type { Services } from '../services.js';
import type { MetricsOverride } from '../tab-state.js';
import { evaluateInPage } from '../page-eval.js';
import { captureWhenHidden } from '../screenshot.js';
import { NEXT_FRAME, VIEWPORT_SIZE } from '@argus/snapshot';

/** The viewports `responsive` captures, in order (phone, tablet, desktop). */
const RESPONSIVE_VIEWPORTS = [
  { width: 375, height: 812, mobile: true },
  { width: 768, height: 1024, mobile: true },
  { width: 1280, height: 720, mobile: false },
] as const;

async function viewportSize(page: Page): Promise<{ width: number; height: number; dpr: number }> {
  return evaluateInPage(page, VIEWPORT_SIZE, []);
}

/**
 * Runs `task` under temporary device metrics, then puts the previous state back: the override
 * `viewport` / `emulate` set for the tab (TabState) when there is one, else none; and if the viewport still differs from
 * before (an override nobody recorded), the measured viewport is re-applied.
 */
async function withViewports<T>(
  page: Page,
  recorded: MetricsOverride | null | undefined,
  task: (apply: (width: number, height: number, mobile: boolean) => Promise<void>) => Promise<T>,
): Promise<T> {
  const before = await viewportSize(page);
  try {
    return await task(async (width, height, mobile) => {
      await page.session.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile });
      await evaluateInPage(page, NEXT_FRAME, []).catch(() => undefined); // resize handlers and layout run on the next frame
    });
  } finally {
    if (!page.closed) {
      if (recorded) await page.session.send('Emulation.setDeviceMetricsOverride', recorded).catch(() => undefined);
      else await page.session.send('Emulation.clearDeviceMetricsOverride').catch(() => undefined);
      await evaluateInPage(page, NEXT_FRAME, []).catch(() => undefined); // the renderer applies the change on its next frame
      const after = await viewportSize(page).catch(() => before);
      if (
        recorded === undefined &&
        (after.width !== before.width || after.height !== before.height || after.dpr !== before.dpr)
      ) {
        await page.session
          .send('Emulation.setDeviceMetricsOverride', {
            width: before.width,
            height: before.height,
            deviceScaleFactor: before.dpr,
            mobile: false,
          })
          .catch(() => undefined);
      }
    }
  }
}

export function visualHandlers(services: Services): Handlers['visual'] {
  const { manager } = services;
  return {
    pdf: (input, ctx) =>
      manager.onTab(input.tab, async (page) => {
        manager.frameChoices.refuseWhileChosen(page, {
          command: 'pdf',
          does: 'prints the whole top document',
          instead: 'capture what the tab shows of the frame with `argus screenshot`',
        });
        const margins = parseMargins(input.margins ?? '0.4in');
        const paper = PAPER[input.format];
        const target = outputTarget(services, ctx, input.path, {
          stem: 'page',
          ext: 'pdf',
          overwrite: input.overwrite,
        });
        let stream: string | undefined;
        try {
          ({ stream } = await page.session.send('Page.printToPDF', {
            paperWidth: paper.width,
            paperHeight: paper.height,
            landscape: input.landscape,
            printBackground: input.background,
            marginTop: margins.top,
            marginRight: margins.right,
            marginBottom: margins.bottom,
            marginLeft: margins.left,
            transferMode: 'ReturnAsStream',
          }));
        } catch (error) {
          if (error instanceof ProtocolError && /not implemented|not supported/i.test(error.message)) {
            throw new ArgusError(
              'unsupported',
              'Printing to PDF needs a headless browser. Restart the daemon headless (ARGUS_HEADLESS=1) or use `argus screenshot --full`.',
            );
          }
          throw error;
        }
        if (!stream) throw new ArgusError('internal', 'Chrome returned no PDF stream.');
        const handle = stream;
        const file = await openTarget(target).catch(async (error: unknown) => {
          await page.session.send('IO.close', { handle }).catch(() => undefined);
          throw error;
        });
        let bytes = 0;
        try {
          bytes = await drainStream(page.session, handle, (chunk) => file.handle.write(chunk).then(() => undefined));
          await file.commit();
        } finally {
          await file.abort();
        }
        return { path: target.path, bytes, format: input.format, landscape: input.landscape };
      }),
    responsive: (input, ctx) =>
      manager.onTab(input.tab, async (page) => {
        // each viewport is the tab as shown; the whole length of the top document is no frame's
        if (input.full)
          manager.frameChoices.refuseWhileChosen(page, {
            command: 'responsive --full',
            does: 'captures the whole top document at each size',
            instead: 'capture what the tab shows at each size: `argus responsive` without --full',
          });
        // every path is checked before the viewport changes
        const prefix =
          input.prefix === undefined ? join(services.stateDir, 'captures', `responsive-${stamp()}`) : input.prefix;
        const planned = RESPONSIVE_VIEWPORTS.map((viewport) => {
          const size = `${viewport.width}x${viewport.height}`;
          const name = /[\\/]$/.test(prefix) ? `${prefix}responsive-${size}.png` : `${prefix}-${size}.png`;
          const target: OutputTarget =
            input.prefix === undefined
              ? { path: name, policy: undefined, overwrite: true }
              : outputTarget(services, ctx, name, { stem: 'responsive', ext: 'png', overwrite: input.overwrite });
          return { viewport, size, target };
        });
        // a hidden tab of Argus's own headless browser is brought forward, as for `screenshot`
        const whenHidden = captureWhenHidden(services);
        return withViewports(page, manager.tabState(page).metricsOverride, async (apply) => {
          const shots = [];
          for (const { viewport, size, target } of planned) {
            await apply(viewport.width, viewport.height, viewport.mobile);
            const shot = await captureImage(page, { format: 'png', full: input.full, whenHidden });
            await writeTarget(target, shot.data);
            shots.push({
              viewport: size,
              path: target.path,
              width: shot.width,
              height: shot.height,
              bytes: shot.data.length,
            });
          }
          return { shots };
        });
      }),
    archive: (input, ctx) =>
      manager.onTab(input.tab, async (page) => {
        const target = outputTarget(services, ctx, input.path, {
          stem: 'page',
          ext: 'mhtml',
          overwrite: input.overwrite,
        });
        const { data } = await page.session.send('Page.captureSnapshot', { format: 'mhtml' });
        await writeTarget(target, data);
        return { path: target.path, bytes: Buffer.byteLength(data) };
      }),
  };
}
