import { extname } from 'node:path';
import {
  type CapturedImage,
  type ClipRect,
  type ImageFormat,
  type Page,
  type WhenHidden,
  captureArea,
  captureImage,
} from '@argus/cdp';
import {
  ArgusError,
  type CallContext,
  type Manifest,
  type OutputOf,
  type ParsedInputOf,
  SCREENSHOT_MAX_EDGE,
} from '@argus/protocol';
import { type SnapshotEngine, elementBox } from '@argus/snapshot';
import { createEarly, outputTarget, writeTargetSized } from './output-path.js';
import type { Services } from './services.js';

type ScreenshotInput = ParsedInputOf<Manifest['page']['screenshot']>;
type ScreenshotOutput = OutputOf<Manifest['page']['screenshot']>;

/** Below this a downscaled capture is too small to read: refused rather than sent. */
const MIN_SCALE = 0.5;
/** An image for a budget never exceeds this many bytes (model APIs cap images at about 5 MB of base64). */
const MAX_BUDGET_BYTES = 3_750_000;

/** Images up to this size are written synchronously (see the end of takeScreenshot). */
const SYNC_WRITE_MAX_BYTES = 1 << 20;

/** Pages whose viewport was over the pixel budget at its last capture (see takeScreenshot). */
const oversizedViewports = new WeakSet<Page>();

/** Whether an image is within `maxPixels` and SCREENSHOT_MAX_EDGE a side (what fitToBudget asks of an area). */
function fitsBudget(shot: CapturedImage, maxPixels: number): boolean {
  return (
    shot.width * shot.height <= maxPixels && shot.width <= SCREENSHOT_MAX_EDGE && shot.height <= SCREENSHOT_MAX_EDGE
  );
}

const EXTENSIONS: Record<string, ImageFormat> = { '.png': 'png', '.jpg': 'jpeg', '.jpeg': 'jpeg', '.webp': 'webp' };

export function parseClip(text: string): { x: number; y: number; width: number; height: number } {
  const [x, y, width, height] = text.split(',').map((part) => Number(part.trim()));
  if (
    [x, y, width, height].some((value) => value === undefined || !Number.isFinite(value)) ||
    width! <= 0 ||
    height! <= 0
  ) {
    throw new ArgusError(
      'invalid_input',
      `--clip "${text}" must be x,y,width,height with a positive width and height, e.g. --clip 0,0,800,600.`,
    );
  }
  return { x: x!, y: y!, width: width!, height: height! };
}

/**
 * What a capture of a hidden tab does (see WhenHidden): Argus's own headless browser has no one
 * looking at it, so its tab is brought to the front; a headed, connected, pooled or extension
 * browser may be in front of a person, whose tab a screenshot must not switch, so it is refused with
 * the command that brings the tab forward.
 */
export function captureWhenHidden(services: Services): WhenHidden {
  const manager = services.manager;
  return manager.mode === 'managed' && manager.headless ? 'bringToFront' : 'refuse';
}

/** `page.screenshot`: viewport, full page, element or clip; PNG/JPEG/WebP; to a file and/or base64. */
export async function takeScreenshot(
  services: Services,
  ctx: CallContext,
  page: Page,
  engine: SnapshotEngine,
  input: ScreenshotInput,
): Promise<ScreenshotOutput> {
  const modes = [input.full, input.ref !== undefined, input.clip !== undefined].filter(Boolean).length;
  if (modes > 1)
    throw new ArgusError('invalid_input', 'Choose one of --full, --ref and --clip (they pick different areas).');
  const extension = input.path === undefined ? '' : extname(input.path).toLowerCase();
  const named = EXTENSIONS[extension];
  const format = input.format ?? named ?? 'png';
  if (input.quality !== undefined && format === 'png') {
    throw new ArgusError(
      'invalid_input',
      '--quality applies to jpeg and webp only. Add --format jpeg (or webp), or drop --quality.',
    );
  }
  const clipRect = input.clip === undefined ? undefined : parseClip(input.clip);
  // the file is checked (path_forbidden) before anything is captured
  const target =
    input.path !== undefined || !input.base64 || input.keepFile
      ? outputTarget(services, ctx, input.path, {
          stem: 'screenshot',
          ext: format === 'jpeg' ? 'jpg' : format,
          overwrite: input.overwrite,
        })
      : null;
  // (after the path's own checks) the file's name says what it holds: never JPEG bytes in a .png, nor any image in a .gif
  if (extension && !named)
    throw new ArgusError(
      'invalid_input',
      `Screenshots are png, jpeg or webp: name the file with .png, .jpg or .webp (not ${extension}).`,
    );
  if (named && input.format !== undefined && input.format !== named)
    throw new ArgusError(
      'invalid_input',
      `${input.path} names a ${named} file, but the format asked is ${input.format}: end the name with .${input.format === 'jpeg' ? 'jpg' : input.format}, or drop the format.`,
    );
  // the kept file in Argus's own dir is created while Chrome captures; removed if the command fails
  const early = target ? createEarly(target) : undefined;
  const { shot, fit, snapshotTaken } = await captureFor(services, page, engine, input, format, clipRect).catch(
    async (error: unknown) => {
      await early?.discard();
      throw error;
    },
  );
  // an image of up to a megabyte (an agent's JPEG is tens of KB) is written in one go on this thread:
  // blocking for the write is cheaper than five thread-pool round trips the reply would wait for
  if (early) await early.write(shot.data, SYNC_WRITE_MAX_BYTES);
  else if (target) await writeTargetSized(target, shot.data, SYNC_WRITE_MAX_BYTES);
  return {
    path: target?.path ?? null,
    format,
    width: shot.width,
    height: shot.height,
    bytes: shot.data.length,
    ...(fit ? { scale: Math.round(fit.scale * 1000) / 1000 } : {}),
    ...(input.annotate ? { annotated: { refs: engine.currentRefs(), snapshotTaken } } : {}),
    ...(input.base64 ? { base64: shot.base64 } : {}),
  };
}

/** The capture of takeScreenshot, its input checked: the image, the budget's downscale, whether a snapshot was taken for labels. */
async function captureFor(
  services: Services,
  page: Page,
  engine: SnapshotEngine,
  input: ScreenshotInput,
  format: ImageFormat,
  clipRect: ClipRect | undefined,
): Promise<{ shot: CapturedImage; fit: BudgetFit | undefined; snapshotTaken: boolean }> {
  const clip = clipRect ?? (input.ref ? await elementBox(engine, input.ref) : undefined);
  const budget = input.maxPixels;
  const viewport = !clip && !input.full;
  // a viewport is measured first only if it was over the budget last time (see capture below)
  const measureFirst = budget !== undefined && (!viewport || oversizedViewports.has(page));
  let fit = measureFirst ? await fitToBudget(page, clip, input.full, budget) : undefined;
  // with no refs on this document yet, labels need a snapshot first (else the capture has none)
  const snapshotTaken = input.annotate && engine.currentRefs() === 0;
  if (snapshotTaken) await engine.snapshot({ interactive: true });
  // labels drawn for the capture only; the overlay is removed on every path
  const removeOverlay = input.annotate ? await engine.annotate() : undefined;
  const whenHidden = captureWhenHidden(services);
  const capture = () =>
    captureImage(page, {
      format,
      whenHidden,
      full: input.full,
      ...(fit ? { clip: fit.area, scale: fit.scale } : clip ? { clip } : {}),
      ...(input.quality === undefined ? {} : { quality: input.quality }),
    });
  let shot: CapturedImage;
  try {
    shot = await capture();
    // The image's size is the truth. A viewport is captured unmeasured: when it fits the budget
    // (nearly always) the capture stands and Page.getLayoutMetrics (a round trip per call) is saved;
    // one over it is captured again downscaled, and measured first from then on. A measured capture
    // still over it (an emulated pixel ratio the metrics miss) is sized again from the image.
    if (budget !== undefined && !fitsBudget(shot, budget)) {
      if (viewport) oversizedViewports.add(page);
      fit = await refit(page, shot, fit, { clip, full: input.full, maxPixels: budget });
      if (fit) shot = await capture();
    } else if (viewport && !fit) oversizedViewports.delete(page);
  } finally {
    await removeOverlay?.();
  }
  if (input.maxPixels !== undefined && shot.data.length > MAX_BUDGET_BYTES)
    throw new ArgusError(
      'screenshot_too_large',
      `The ${format} image is ${shot.data.length} bytes, over the ${MAX_BUDGET_BYTES}-byte budget for an image reply. Ask for jpeg (the default) or a smaller area (ref or clip).`,
      { details: { bytes: shot.data.length, maxBytes: MAX_BUDGET_BYTES, format } },
    );
  return { shot, fit, snapshotTaken };
}

/** The budget's downscale of a capture: the area, and the scale Chrome encodes it at. */
interface BudgetFit {
  area: ClipRect;
  scale: number;
}

/**
 * The downscale that fits a capture into `maxPixels` and SCREENSHOT_MAX_EDGE a side (undefined: it
 * fits as it is), sized from the page's layout metrics before capturing (clip and full page; a
 * viewport is sized by its first capture, see takeScreenshot).
 */
async function fitToBudget(
  page: Page,
  clip: ClipRect | undefined,
  full: boolean,
  maxPixels: number,
): Promise<BudgetFit | undefined> {
  const { area, dpr } = await captureArea(page, { clip, full });
  const what = clip ? 'The area' : full ? 'The full page' : 'The viewport';
  return budgetFit(area, area.width * dpr, area.height * dpr, 1, maxPixels, what);
}

/**
 * A capture over the budget after all, sized by the image itself: the layout metrics' pixel ratio
 * misses an emulated one (`viewport --scale 2`: the metrics say 1, the image is twice as wide).
 */
async function refit(
  page: Page,
  shot: CapturedImage,
  fit: BudgetFit | undefined,
  options: { clip: ClipRect | undefined; full: boolean; maxPixels: number },
): Promise<BudgetFit | undefined> {
  const area = fit?.area ?? (await captureArea(page, { clip: options.clip, full: options.full })).area;
  const what = options.clip ? 'The area' : options.full ? 'The full page' : 'The viewport';
  return budgetFit(area, shot.width, shot.height, fit?.scale ?? 1, options.maxPixels, what);
}

/**
 * The scale that brings an image of `width` x `height` px (captured at `scaledBy`) within the
 * budget, rounded down to a thousandth so the image Chrome rounds stays within it. An area that would
 * need less than half size (a tall full page) is refused: such an image is unreadable, and a part of
 * it is what the caller can use.
 */
function budgetFit(
  area: ClipRect,
  width: number,
  height: number,
  scaledBy: number,
  maxPixels: number,
  what: string,
): BudgetFit | undefined {
  const w = Math.max(1, width);
  const h = Math.max(1, height);
  const factor = Math.min(1, Math.sqrt(maxPixels / (w * h)), SCREENSHOT_MAX_EDGE / w, SCREENSHOT_MAX_EDGE / h);
  if (factor >= 1) return undefined;
  const scale = Math.floor(scaledBy * factor * 1000) / 1000;
  if (scale < MIN_SCALE) {
    // sizes at full resolution, as the caller sees the page
    const fullWidth = Math.round(w / scaledBy);
    const fullHeight = Math.round(h / scaledBy);
    throw new ArgusError(
      'screenshot_too_large',
      `${what} is ${fullWidth}x${fullHeight} px; to fit ${maxPixels} pixels and ${SCREENSHOT_MAX_EDGE} px a side it would shrink to ${Math.round(scale * 100)}%, too small to read. Capture the viewport (without full), one element (ref) or a part (clip x,y,width,height, e.g. 0,0,${Math.round(area.width)},${Math.round(Math.min(area.height, SCREENSHOT_MAX_EDGE))}).`,
      { details: { width: fullWidth, height: fullHeight, maxPixels, scale } },
    );
  }
  return { area, scale };
}
