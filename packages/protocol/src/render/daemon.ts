import { clip, duration } from './format.js';
import { journalStateLine } from './journal.js';
import { leaseLine } from './tabs.js';
import type { OutputOf, RenderersOf } from './types.js';

type Extension = OutputOf<'session.pair'>['extension'];
type Pool = NonNullable<OutputOf<'session.connect'>['pool']>;

/** One line per pool endpoint: health, load and the sessions on it (status, connect). */
function poolLines(pool: Pool | null | undefined): string[] {
  if (!pool) return [];
  return [
    ...pool.endpoints.map((endpoint) => {
      const why = endpoint.health === 'down' && endpoint.lastError ? ` (${clip(endpoint.lastError, 80)})` : '';
      const placed = endpoint.sessions.length + endpoint.others;
      const names = [...endpoint.sessions, ...(endpoint.others ? [`${endpoint.others} of other clients`] : [])];
      const who = names.length ? `: ${names.join(', ')}` : '';
      return `pool    ${endpoint.url} ${endpoint.health}${why}, ${placed}/${endpoint.maxSessions} sessions${who}`;
    }),
    ...(pool.lost.length
      ? [`lost    ${pool.lost.join(', ')} (next command reports browser_lost, the one after recreates)`]
      : []),
    ...(pool.othersLost ? [`lost    ${pool.othersLost} session(s) of other clients`] : []),
  ];
}
type Pending = OutputOf<'session.pair'>['pending'][number];

/** What `argus stop` did to the browser, as it really happened (a remote browser is never closed). */
function stopLine(output: OutputOf<'daemon.stop'>): string {
  if (output.poolSessions !== undefined)
    return `daemon stopped: ${output.poolSessions} pool session(s) released (their browser contexts closed with the connection); the remote browsers keep running`;
  if (output.browser === 'left_running')
    return 'daemon stopped (disconnected; the browser keeps running with its tabs)';
  if (output.browser === 'none') return 'daemon stopped (no browser was running)';
  return 'daemon stopped (browser closed)';
}

/** One line on the extension relay and the extension connected to it (status, connect, pair). */
export function extensionLine(extension: Extension | undefined): string {
  if (!extension || extension.state === 'relay_stopped')
    return 'relay not started (`argus connect --extension` starts it)';
  const where = `relay ${extension.relayUrl}`;
  if (extension.connected) return `connected (node ${extension.nodeId ?? '?'}, ${extension.tabs} tabs) via ${where}`;
  const error = extension.lastError ? `; last error: ${extension.lastError}` : '';
  if (extension.pendingPairings > 0)
    return `waiting for pair approval (${extension.pendingPairings} pending: \`argus pair\`), ${where}${error}`;
  return `not connected: open the extension popup and connect it to ${extension.relayUrl}${error}`;
}

/** One pending pairing request: code, who asks (origin or "local process"), fingerprint, node id. */
function pendingLine(request: Pending): string {
  const from = request.fromExtension
    ? `extension ${request.origin ?? ''}`
    : `LOCAL PROCESS (no extension origin${request.origin ? `: ${clip(request.origin, 60)}` : ''})`;
  return `pending ${request.code}  from ${from}  fingerprint ${request.fingerprint}  node ${clip(request.nodeId, 40)}  expires in ${Math.round(request.expiresInMs / 1000)} s`;
}

function browserLine(browser: OutputOf<'daemon.status'>['browser']): string {
  if (browser.running) return `running (pid ${browser.pid ?? '-'}, ${browser.version ?? ''})`;
  return browser.crashed ? 'crashed (relaunches on next command)' : 'not started (starts on the first page command)';
}

export const daemonRenderers: RenderersOf<'daemon'> = {
  'daemon.status': (output) =>
    [
      `daemon  running (pid ${output.pid}, v${output.version}, up ${Math.round(output.uptimeMs / 1000)} s)`,
      `mode    ${output.mode}`,
      `browser ${browserLine(output.browser)}`,
      ...poolLines(output.pool),
      `tabs    ${output.tabs}${output.activeTab ? ` (active ${output.activeTab})` : ''}`,
      ...(output.tokens === undefined ? [] : [`tokens  ${output.tokens} (\`argus token create\` mints scoped ones)`]),
      `extension ${extensionLine(output.extension)}`,
      ...(output.profile ? [`profile ${output.profile} (persistent)`] : []),
      ...(output.journal ? [journalStateLine(output.journal)] : []),
      ...(output.scheduler
        ? [
            `queue   ${output.scheduler.running} running, ${output.scheduler.waiting} waiting (at most ${output.scheduler.maxParallel} at once)`,
          ]
        : []),
      ...(output.leases?.length ? output.leases.map((lease) => `lease   ${leaseLine(lease)}`) : []),
      ...(output.handoffs ?? []).map(
        (handoff) =>
          `handoff tab ${handoff.tab} (${handoff.mode}) since ${handoff.startedAt}: "${handoff.reason}" until Done or \`argus resume\` (ends by itself ${handoff.expiresAt})`,
      ),
      ...(output.paused?.length
        ? output.paused.map(
            (pause) => `paused  tab ${pause.tab} by the person since ${pause.since} (commands wait for Resume)`,
          )
        : []),
      `state   ${output.stateDir}`,
      `log     ${output.logFile}`,
      `idle    stops after ${duration(output.idleTimeoutMs)} without commands`,
    ].join('\n'),
  'daemon.stop': (output) =>
    output.stopping
      ? stopLine(output)
      : output.others?.length
        ? `daemon kept running: other clients use it (${output.others.join(', ')})`
        : 'daemon was not running',
  'daemon.restart': (output) =>
    [
      output.newPid === null
        ? `daemon pid ${output.pid} stopped for a restart; the next command starts the new one`
        : `daemon restarted: pid ${output.pid} -> ${output.newPid}`,
      `carried over ${output.cookies} cookie(s) and ${output.tabs.length} tab(s)${output.tabs.length ? ':' : ''}`,
      ...output.tabs.map((url) => `  ${url}`),
    ].join('\n'),
};

export const sessionRenderers: RenderersOf<'session'> = {
  'session.disconnect': (output) =>
    output.action === 'detached'
      ? `detached from the ${output.mode === 'extension' ? 'extension' : 'connected'} browser; it keeps running`
      : output.action === 'closed'
        ? 'closed the browser Argus launched (a launched browser is never left running); the next command launches a new one'
        : 'no browser was attached',
  'session.connect': (output) =>
    [
      `mode      ${output.mode}${output.switched ? ` (was ${output.previousMode})` : ''}${output.cdpUrl ? ` ${output.cdpUrl}` : ''}`,
      ...poolLines(output.pool),
      `extension ${extensionLine(output.extension)}`,
    ].join('\n'),
  'session.pair': (output) => {
    const local = output.pending.filter((request) => !request.fromExtension).length;
    return [
      ...(output.approved ? [`approved ${output.approved}`] : []),
      ...(output.pending.length
        ? output.pending.map(pendingLine)
        : output.approved
          ? []
          : ['no pending pairing requests']),
      ...(output.pending.length ? ['approve only the code your extension popup shows, with the same node id'] : []),
      ...(local
        ? [
            `${local} request(s) came from local processes, not from a browser extension: do not approve them unless you started them`,
          ]
        : []),
      `extension ${extensionLine(output.extension)}`,
    ].join('\n');
  },
};
