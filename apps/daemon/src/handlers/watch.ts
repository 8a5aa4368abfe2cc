import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@argus/cdp';
import { ArgusError, type CallContext, type Handlers } from '@argus/protocol';
import { confinePath, type PathPolicy, requireScope } from '@argus/security';
import { currentLeaseClaim } from '../lease-claims.js';
import { stamp } from '../output-path.js';
import { captureWhenHidden } from '../screenshot.js';
import type { Services } from '../services.js';
import { findFfmpeg } from '../watch/ffmpeg.js';
import { Recording } from '../watch/recorder.js';
import { makeDirs } from '@argus/protocol/make-dirs';

/** Where a recording goes: its frames' directory, the WebM beside or inside it, and the guard to re-check. */
interface RecordingTarget {
  dir: string;
  webm: string;
  policy: PathPolicy | undefined;
}

/**
 * `path.webm` puts the frames in `path.frames/` beside it; any other path is the frames' directory
 * (created), with `screencast.webm` inside; no path: a new directory in the state dir's captures.
 * Every path goes through the caller's path policy, like every other output.
 */
function recordingTarget(
  services: Services,
  ctx: CallContext,
  given: string | undefined,
  overwrite: boolean,
): RecordingTarget {
  if (given === undefined) {
    const dir = join(services.stateDir, 'captures', `screencast-${stamp()}`);
    makeDirs(dir, 0o700);
    return { dir, webm: join(dir, 'screencast.webm'), policy: undefined };
  }
  const policy = services.access.paths(ctx);
  const isWebm = /\.webm$/i.test(given);
  const webmGiven = isWebm ? confinePath(given, policy) : undefined;
  let dir = confinePath(isWebm ? given.replace(/\.webm$/i, '.frames') : given, policy);
  makeDirectory(dir);
  // again once it exists: a link planted on the way is resolved and judged
  dir = confinePath(dir, policy);
  const webm = webmGiven ?? join(dir, 'screencast.webm');
  for (const path of [join(dir, 'manifest.json'), webm]) {
    if (!overwrite && existsSync(path))
      throw new ArgusError('file_exists', `${path} exists. Pass --overwrite to replace it, or choose another path.`, {
        details: { path },
      });
  }
  return { dir, webm, policy };
}

/**
 * Chrome sends a hidden tab's screencast no frames (a recording of it stayed empty, silently), so a
 * recording starts on a shown tab: Argus's own headless browser brings it forward, as a screenshot
 * does; a browser a person may be looking at is not switched, and the start is refused with the
 * command that brings the tab forward (see captureWhenHidden).
 */
async function showForRecording(services: Services, page: Page): Promise<void> {
  // a page between documents answers nothing: it is recorded as it is
  if (!(await page.isHidden().catch(() => false))) return;
  if (captureWhenHidden(services) === 'bringToFront') {
    await page.session.send('Page.bringToFront', {});
    return;
  }
  const tab = page.id.slice(0, 8);
  throw new ArgusError(
    'tab_hidden',
    `Tab ${tab} is hidden (a background tab of its window, or its window is minimized), and Chrome draws no frames for a hidden tab, so a recording of it would stay empty. Bring it to the front with \`argus tab ${tab}\` (this switches the tab shown in that window; a minimized window must be shown too), then start the recording again.`,
    { details: { tab: page.id } },
  );
}

/** Creates the frames' directory; a name the filesystem refuses is the caller's to change, not an internal error. */
function makeDirectory(dir: string): void {
  try {
    makeDirs(dir, 0o755);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ArgusError(
      'invalid_input',
      `Cannot create the recording directory ${dir} (${code}: ${code === 'ENOTDIR' || code === 'EEXIST' ? 'a file is in the way' : 'the filesystem refused the name'}). Choose another path.`,
      { details: { path: dir, errno: code } },
    );
  }
}

export function watchHandlers(services: Services): Handlers['watch'] {
  const { manager, watch } = services;
  return {
    open: (input, ctx) => {
      if (input.control)
        requireScope(ctx, 'write', 'A watch link with --control', 'Leave out --control for a view-only link.');
      return manager.onTab(input.tab, async (page) => {
        // the caller's lease proof goes with a --control link: its viewer writes as this caller
        const claim = input.control ? currentLeaseClaim() : undefined;
        const link = await watch.link(page, input.control, input.ttl * 1000, claim);
        return { url: link.url, tab: page.id, control: input.control, expiresAt: link.expiresAt };
      });
    },
  };
}

export function screencastHandlers(services: Services): Handlers['screencast'] {
  const { manager, watch } = services;
  return {
    start: (input, ctx) =>
      manager.onTab(input.tab, async (page) => {
        const existing = watch.recordings.get(page.id);
        if (existing?.running)
          throw new ArgusError(
            'invalid_input',
            `Tab ${page.id} is being recorded already (to ${existing.dir}). Run \`argus screencast stop --tab ${page.id}\` first.`,
          );
        await showForRecording(services, page);
        const target = recordingTarget(services, ctx, input.path, input.overwrite);
        const ffmpeg = findFfmpeg(watch.env);
        const recording = new Recording(page, watch.hub, {
          dir: target.dir,
          policy: target.policy,
          overwrite: input.overwrite,
          fps: input.fps,
          maxSize: input.maxSize,
          maxBytes: input.maxMb * 1024 * 1024,
          webm: ffmpeg ? target.webm : null,
          ffmpeg,
        });
        watch.recordings.set(page.id, recording);
        return { tab: page.id, dir: target.dir, webm: ffmpeg ? target.webm : null, ffmpeg: ffmpeg !== undefined };
      }),
    stop: async (input) => {
      // a recording of a closed tab is still reported: its id is looked up among the recordings first
      const tabs = [...watch.recordings.keys()];
      let tab: string | undefined;
      if (input.tab) tab = tabs.find((id) => id === input.tab || id.startsWith(input.tab ?? ''));
      else if (tabs.length === 1) tab = tabs[0];
      else tab = tabs.find((id) => id === manager.activeTab);
      if (input.tab && !tab) tab = (await manager.page(input.tab).catch(() => undefined))?.id;
      const recording = tab ? watch.recordings.get(tab) : undefined;
      if (!tab || !recording)
        throw new ArgusError(
          'invalid_input',
          tabs.length === 0
            ? 'No recording is running. Start one with `argus screencast start`.'
            : `Say which recording to stop: --tab ${tabs.join(' or --tab ')}.`,
        );
      const result = await recording.stop('stopped');
      watch.recordings.delete(tab);
      return result;
    },
  };
}
