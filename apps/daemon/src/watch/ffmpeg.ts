import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The ffmpeg on the PATH, if any (optional: recordings work without it, as frames). */
export function findFfmpeg(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'ffmpeg');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** An encode that takes longer than this is stopped (the frames stay). */
const ENCODE_TIMEOUT_MS = 5 * 60_000;

/**
 * Encodes a concat list of frames (each with its own duration: screencast frames come when the page
 * changes, not at a fixed rate) to VP9 WebM. Arguments are passed as a list, never through a shell.
 * Resolves with null on success, or the reason it failed.
 */
export function encodeWebm(ffmpeg: string, listFile: string, output: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(
      ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-y',
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        listFile,
        // VP9 with 4:2:0 needs even dimensions
        '-vf',
        'scale=trunc(iw/2)*2:trunc(ih/2)*2',
        '-c:v',
        'libvpx-vp9',
        '-b:v',
        '0',
        '-crf',
        '40',
        '-deadline',
        'realtime',
        '-pix_fmt',
        'yuv420p',
        '-f',
        'webm',
        output,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4_000) stderr += String(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), ENCODE_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(`ffmpeg could not start: ${error.message}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(null);
      else
        resolve(
          `ffmpeg failed (${signal ? `killed by ${signal}` : `exit ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' ') || 'no output'}`,
        );
    });
  });
}
