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

/**
 * Domains whose commands drive a page (`manager.onTab` in the daemon), and the commands of other
 * domains that replay, record, watch, preview or pick on one: the first such call cues a prestarted
 * daemon that is still loading to launch Chromium (cueBrowserLaunch). The rest (the web providers,
 * the canvas, the inbox, the journal, tokens, settings) never start a browser for an agent that only
 * uses them.
 */
const BROWSER_DOMAINS = new Set([
  'batch',
  'capture',
  'dom',
  'emulation',
  'files',
  'handoff',
  'input',
  'inspect',
  'page',
  'read',
  'route',
  'screencast',
  'snapshot',
  'state',
  'tabs',
  'visual',
]);
const BROWSER_COMMANDS = new Set([
  'skill.run',
  'skill.record',
  'watch.open',
  'canvas.open',
  'canvas.nodeOf',
  'canvas.import',
  'inbox.annotate',
]);

/** Whether a command needs the browser (see BROWSER_DOMAINS). */
export function drivesBrowser(command: string): boolean {
  return BROWSER_COMMANDS.has(command) || BROWSER_DOMAINS.has(command.slice(0, command.indexOf('.')));
}
