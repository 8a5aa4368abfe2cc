/**
 * What an MCP server starts before its agent's first call (ARGUS_PRELAUNCH): by default the
 * workspace daemon, without Chromium, so the first call pays neither for the daemon's start-up nor
 * for a browser the agent may never use (the daemon launches Chromium at the first browser command);
 * `browser`: Chromium as well (the fastest first call, at a browser's memory from the start); `0`:
 * nothing until the first call.
 */
export type Prestart = 'off' | 'daemon' | 'browser';

export function prestartMode(env: NodeJS.ProcessEnv = process.env): Prestart {
  const value = env.ARGUS_PRELAUNCH?.trim();
  return value === '0' ? 'off' : value === 'browser' ? 'browser' : 'daemon';
}

/** Variables for the daemon a server prestarts: no early Chromium unless `browser` was asked. */
export function prestartDaemonEnv(mode: Prestart): Record<string, string> {
  return mode === 'browser' ? {} : { ARGUS_PRELAUNCH: '0' };
}
