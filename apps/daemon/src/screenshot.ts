import { extname } from 'node:path';
import { type ImageFormat, type Page, captureImage } from '@argus/cdp';
import { ArgusError, type CallContext, type Manifest, type OutputOf, type ParsedInputOf } from '@argus/protocol';
import { type SnapshotEngine, elementBox } from '@argus/snapshot';
import { outputTarget, writeTarget } from './output-path.js';
import type { Services } from './services.js';

type ScreenshotInput = ParsedInputOf<Manifest['page']['screenshot']>;
type ScreenshotOutput = OutputOf<Manifest['page']['screenshot']>;

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
  // labels drawn for the capture only; the overlay is removed on every path
  const removeOverlay = input.annotate ? await engine.annotate() : undefined;
  let shot: Awaited<ReturnType<typeof captureImage>>;
  try {
    shot = await captureImage(page, {
      format,
      full: input.full,
      ...(clip ? { clip } : {}),
      ...(input.quality === undefined ? {} : { quality: input.quality }),
    });
  } finally {
    await removeOverlay?.();
  }
  if (target) await writeTarget(target, shot.data);
  return {
    path: target?.path ?? null,
    format,
    width: shot.width,
    height: shot.height,
    bytes: shot.data.length,
    ...(input.base64 ? { base64: shot.data.toString('base64') } : {}),
  };
}
