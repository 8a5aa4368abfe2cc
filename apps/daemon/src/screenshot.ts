import { extname } from 'node:path';
import { type ClipRect, type ImageFormat, type Page, captureArea, captureImage } from '@argus/cdp';
import {
  ArgusError,
  type CallContext,
  type Manifest,
  type OutputOf,
  type ParsedInputOf,
  SCREENSHOT_MAX_EDGE,
} from '@argus/protocol';
import { type SnapshotEngine, elementBox } from '@argus/snapshot';
import { outputTarget, writeTarget } from './output-path.js';
import type { Services } from './services.js';

type ScreenshotInput = ParsedInputOf<Manifest['page']['screenshot']>;
type ScreenshotOutput = OutputOf<Manifest['page']['screenshot']>;

/** Below this a downscaled capture is too small to read: refused rather than sent. */
const MIN_SCALE = 0.5;
/** An image for a budget never exceeds this many bytes (model APIs cap images at about 5 MB of base64). */
const MAX_BUDGET_BYTES = 3_750_000;

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
  const format = input.format ?? (input.path ? EXTENSIONS[extname(input.path).toLowerCase()] : undefined) ?? 'png';
  if (input.quality !== undefined && format === 'png') {
    throw new ArgusError(
      'invalid_input',
      '--quality applies to jpeg and webp only. Add --format jpeg (or webp), or drop --quality.',
    );
  }
  const clipRect = input.clip === undefined ? undefined : parseClip(input.clip);
  // the file is checked (path_forbidden) before anything is captured
  const target =
    input.path !== undefined || !input.base64
      ? outputTarget(services, ctx, input.path, {
          stem: 'screenshot',
          ext: format === 'jpeg' ? 'jpg' : format,
          overwrite: input.overwrite,
        })
      : null;
  const clip = clipRect ?? (input.ref ? await elementBox(engine, input.ref) : undefined);
  const fit = input.maxPixels === undefined ? undefined : await fitToBudget(page, clip, input.full, input.maxPixels);
  // with no refs on this document yet, labels need a snapshot first (else the capture has none)
  const snapshotTaken = input.annotate && engine.currentRefs() === 0;
  if (snapshotTaken) await engine.snapshot({ interactive: true });
  // labels drawn for the capture only; the overlay is removed on every path
  const removeOverlay = input.annotate ? await engine.annotate() : undefined;
  let shot: Awaited<ReturnType<typeof captureImage>>;
  try {
    shot = await captureImage(page, {
      format,
      full: input.full,
      ...(fit ? { clip: fit.area, scale: fit.scale } : clip ? { clip } : {}),
      ...(input.quality === undefined ? {} : { quality: input.quality }),
    });
  } finally {
    await removeOverlay?.();
  }
  if (input.maxPixels !== undefined && shot.data.length > MAX_BUDGET_BYTES)
    throw new ArgusError(
      'screenshot_too_large',
      `The ${format} image is ${shot.data.length} bytes, over the ${MAX_BUDGET_BYTES}-byte budget for an image reply. Ask for jpeg (the default) or a smaller area (ref or clip).`,
      { details: { bytes: shot.data.length, maxBytes: MAX_BUDGET_BYTES, format } },
    );
  if (target) await writeTarget(target, shot.data);
  return {
    path: target?.path ?? null,
    format,
    width: shot.width,
    height: shot.height,
    bytes: shot.data.length,
    ...(fit ? { scale: Math.round(fit.scale * 1000) / 1000 } : {}),
    ...(input.annotate ? { annotated: { refs: engine.currentRefs(), snapshotTaken } } : {}),
    ...(input.base64 ? { base64: shot.data.toString('base64') } : {}),
  };
}

/**
 * The downscale that fits a capture into `maxPixels` and SCREENSHOT_MAX_EDGE a side (undefined: it
 * fits as it is). An area that would need less than half size (a tall full page) is refused: such an
 * image is unreadable, and a part of it is what the caller can use.
 */
async function fitToBudget(
  page: Page,
  clip: ClipRect | undefined,
  full: boolean,
  maxPixels: number,
): Promise<{ area: ClipRect; scale: number } | undefined> {
  const { area, dpr } = await captureArea(page, { clip, full });
  const width = Math.max(1, area.width * dpr);
  const height = Math.max(1, area.height * dpr);
  const scale = Math.min(
    1,
    Math.sqrt(maxPixels / (width * height)),
    SCREENSHOT_MAX_EDGE / width,
    SCREENSHOT_MAX_EDGE / height,
  );
  if (scale >= 1) return undefined;
  if (scale < MIN_SCALE) {
    const what = clip ? 'The area' : full ? 'The full page' : 'The viewport';
    throw new ArgusError(
      'screenshot_too_large',
      `${what} is ${Math.round(width)}x${Math.round(height)} px; to fit ${maxPixels} pixels and ${SCREENSHOT_MAX_EDGE} px a side it would shrink to ${Math.round(scale * 100)}%, too small to read. Capture the viewport (without full), one element (ref) or a part (clip x,y,width,height, e.g. 0,0,${Math.round(area.width)},${Math.round(Math.min(area.height, SCREENSHOT_MAX_EDGE))}).`,
      {
        details: {
          width: Math.round(width),
          height: Math.round(height),
          maxPixels,
          scale: Math.round(scale * 1000) / 1000,
        },
      },
    );
  }
  return { area, scale };
}
