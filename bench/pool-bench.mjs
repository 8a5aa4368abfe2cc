#!/usr/bin/env node
// Pool mode on real engines: per-session cost (memory, CPU, commands/s) and a failover run.
// Endpoints are either plain Chromium processes on loopback (--engine chromium, the default) or
// browserless servers (--engine browserless --browserless-dir DIR: a directory where
// `npm install @browserless.io/browserless` ran; each server launches the system Chromium through
// its own Playwright/puppeteer stack and serves CDP over WebSocket at /chromium). A real daemon
// process is put in pool mode over them (`session.connect --pool`), S named sessions each run R
// rounds of mixed commands (goto, snapshot, fill, click, eval, screenshot) at once, then the same
// again while the endpoint holding session s0 is killed halfway through: what each session saw,
// how long until it worked again, and whether s0's saved cookie came back (--restore-state).
// Baseline measured in the same run: a raw CDP Runtime.evaluate round trip to the same endpoint.
// Usage: pnpm build && pnpm bench pool [--endpoints 3] [--sessions 6] [--max-sessions 3]
//        [--rounds 10] [--engine chromium|browserless] [--browserless-dir DIR]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import CDP from 'chrome-remote-interface';
import { launchChrome, resolveBrowserEndpoint } from '@argus/cdp';
import { createArgusClient } from '@argus/client';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { median, ms, percentile } from './lib-stats.mjs';

const options = benchOptions({
  endpoints: 3,
  sessions: 6,
  'max-sessions': 3,
  rounds: 10,
  engine: 'chromium',
  'browserless-dir': '',
});
const ENDPOINTS = Number(options.endpoints);
const SESSIONS = Number(options.sessions);
const ROUNDS = Number(options.rounds);
const CHROME = process.env.CHROME_PATH || '/usr/lib/chromium/chromium';
const PROXY = '--proxy-server=http://127.0.0.1:9';
if (SESSIONS > (ENDPOINTS - 1) * Number(options['max-sessions']))
  throw new Error('--sessions must fit on the endpoints left after one dies: at most (endpoints - 1) x max-sessions');
if (options.engine === 'browserless' && !options['browserless-dir'])
  throw new Error('--engine browserless needs --browserless-dir (where @browserless.io/browserless is installed)');

const FORM = `<!doctype html><title>Form</title><h1>Sign up</h1>
<form onsubmit="event.preventDefault(); out.textContent = 'sent ' + name.value">
  <label>Name <input id="name"></label><label><input type="checkbox" name="terms"> I agree</label>
  <button>Send</button></form><p id="out"></p>
<ul>${Array.from({ length: 60 }, (_, i) => `<li><a href="#item-${i}">Item ${i}</a></li>`).join('')}</ul>`;

const temp = mkdtempSync(join(tmpdir(), 'argus-pool-bench-'));
const server = await startFixtureServer({ pages: { '/form/': FORM } });
const formUrl = new URL('/form/', server.url).href;
const endpoints = [];
let daemon;
const handles = [];

try {
  for (let i = 0; i < ENDPOINTS; i++)
    endpoints.push(options.engine === 'browserless' ? await startBrowserless(i) : await startChromium());
  console.log(
    `engine ${options.engine}: ${ENDPOINTS} endpoints, ${SESSIONS} sessions (max ${options['max-sessions']} each), ${ROUNDS} rounds`,
  );

  // baseline: a raw CDP round trip on the first endpoint, without Argus
  const raw = await rawEvalMs(endpoints[0].url);

  daemon = await startDaemon();
  const operator = client();
  // second baseline: the same daemon on one endpoint in plain connect mode (what the pool adds to it)
  await operator.session.connect.mutate({ cdp: endpoints[0].url });
  await operator.page.goto.mutate({ url: formUrl });
  const single = await evalMs(operator);
  await operator.session.disconnect.mutate({});
  const connected = await operator.session.connect.mutate({
    pool: endpoints.map((endpoint) => endpoint.url),
    maxSessions: Number(options['max-sessions']),
    restoreState: true,
  });
  console.log(`connect  ${connected.pool.endpoints.map((e) => `${e.health} ${e.version ?? ''}`).join(' | ')}`);

  // memory: proportional set size (shared pages split fairly) of every endpoint's process tree
  const pssBefore = endpoints.reduce((sum, endpoint) => sum + treePssMb(endpoint.pid), 0);
  const sessions = Array.from({ length: SESSIONS }, (_, i) => ({ name: `s${i}`, client: client(`s${i}`) }));
  for (const session of sessions) await session.client.page.goto.mutate({ url: formUrl });
  const pssAfter = endpoints.reduce((sum, endpoint) => sum + treePssMb(endpoint.pid), 0);
  const perSessionMb = (pssAfter - pssBefore) / SESSIONS;

  // steady load: every session runs its rounds at once
  const cpuBefore = cpuSeconds([daemon.pid, ...endpoints.map((endpoint) => endpoint.pid)]);
  const load = await runRounds(sessions, ROUNDS);
  const cpuAfter = cpuSeconds([daemon.pid, ...endpoints.map((endpoint) => endpoint.pid)]);
  const commands = load.latencies.length;
  const cpuPerCommandMs = ((cpuAfter.total - cpuBefore.total) / commands) * 1000;
  const daemonCpuPerCommandMs = ((cpuAfter.byRoot[0] - cpuBefore.byRoot[0]) / commands) * 1000;
  // the same round trip through Argus with nothing else running: one session, one eval after another
  const evalMedian = await evalMs(sessions[0].client);

  console.log('\nper-session cost (steady load)');
  console.log(
    `  memory        ${perSessionMb.toFixed(1)} MB PSS per session (endpoints ${pssBefore.toFixed(0)} -> ${pssAfter.toFixed(0)} MB)`,
  );
  console.log(
    `  throughput    ${(commands / load.seconds).toFixed(1)} commands/s over ${SESSIONS} sessions (${(commands / load.seconds / SESSIONS).toFixed(1)} per session), ${load.errors} errors`,
  );
  if (load.errors)
    console.log(
      `  errors        ${[...load.perSession.values()]
        .flatMap((seen) => Object.values(seen.messages))
        .slice(0, 3)
        .join(' | ')}`,
    );
  console.log(`  latency       p50 ${ms(median(load.latencies))}, p99 ${ms(percentile(load.latencies, 99))}`);
  console.log(
    `  cpu           ${cpuPerCommandMs.toFixed(1)} ms CPU per command (daemon ${daemonCpuPerCommandMs.toFixed(1)} ms, browsers the rest)`,
  );
  console.log(
    `  eval (idle)   pool session ${ms(evalMedian)}, same daemon in connect mode on one endpoint ${ms(single)}: ratio ${(evalMedian / single).toFixed(2)}`,
  );
  console.log(
    `                raw CDP Runtime.evaluate on the endpoint ${ms(raw)} (the daemon's whole command path: ratio ${(evalMedian / raw).toFixed(1)})`,
  );
  console.log(`  eval (load)   ${ms(median(load.evals))} median while every session runs its rounds`);

  // failover: s0 saves a cookie, then its endpoint dies halfway through a second run
  const s0 = sessions[0];
  await s0.client.page.goto.mutate({ url: new URL('/set-cookie?name=kept&value=yes&max-age=600', server.url).href });
  await s0.client.page.goto.mutate({ url: formUrl });
  await s0.client.state.save.mutate({ name: 's0-state' });
  const status = await operator.daemon.status.query({});
  const dying = status.pool.endpoints.findIndex((endpoint) => endpoint.sessions.includes(s0.name));
  const onDying = status.pool.endpoints[dying].sessions;
  let killedAt = 0;
  const killer = (async () => {
    await new Promise((resolve) => setTimeout(resolve, Math.max(200, (load.seconds * 1000) / 2)));
    killedAt = performance.now();
    await endpoints[dying].kill();
  })();
  const failover = await runRounds(sessions, ROUNDS, () => killedAt);
  await killer;
  const cookie = (await s0.client.page.eval.mutate({ js: 'document.cookie' })).value;
  const after = await operator.daemon.status.query({});
  console.log(
    `\nfailover: endpoint ${dying} (${after.pool.endpoints[dying].url}) killed mid-run, holding ${onDying.join(', ')}`,
  );
  for (const session of sessions) {
    const seen = failover.perSession.get(session.name);
    const codes =
      Object.entries(seen.codes)
        .map(([code, n]) => `${code} x${n} (${seen.messages[code]})`)
        .join(', ') || 'no errors';
    const back = seen.recoveredMs === undefined ? '' : `, working again ${ms(seen.recoveredMs)} after the kill`;
    console.log(`  ${session.name.padEnd(4)} ${codes}${back}`);
  }
  console.log(
    `  endpoints now ${after.pool.endpoints.map((e) => `${e.health} [${e.sessions.join(',')}]`).join(' | ')}`,
  );
  console.log(
    `  s0 cookie after recreation: ${JSON.stringify(cookie)} (saved state restored: ${/kept=yes/.test(String(cookie))})`,
  );
  console.log(
    `  ${failover.latencies.length} commands ok, ${failover.errors} failed (${failover.seconds.toFixed(1)} s)`,
  );
} finally {
  for (const handle of handles) handle.close();
  if (daemon) {
    daemon.child.kill('SIGTERM');
    await new Promise((resolve) => daemon.child.once('exit', resolve));
  }
  await Promise.all(endpoints.map((endpoint) => endpoint.kill().catch(() => undefined)));
  await server.close();
  rmSync(temp, { recursive: true, force: true, maxRetries: 5 });
}

/** Each session runs `rounds` of goto, snapshot, fill, click, eval, screenshot; errors are counted by code. */
async function runRounds(sessions, rounds, killedAt = () => 0) {
  const latencies = [];
  const evals = [];
  const perSession = new Map();
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    sessions.map(async ({ name, client: c }) => {
      const seen = { codes: {}, messages: {}, lostAt: undefined, recoveredMs: undefined };
      perSession.set(name, seen);
      const steps = [
        () => c.page.goto.mutate({ url: formUrl }),
        () => c.snapshot.take.mutate({ interactive: true }),
        () => c.input.fill.mutate({ target: '#name', text: name }),
        () => c.input.click.mutate({ target: 'button' }),
        () => c.page.eval.mutate({ js: 'out.textContent' }),
        () => c.page.screenshot.mutate({ base64: true }),
      ];
      for (let round = 0; round < rounds; round++) {
        for (const [index, step] of steps.entries()) {
          const t0 = performance.now();
          try {
            await step();
            const took = performance.now() - t0;
            latencies.push(took);
            if (index === 4) evals.push(took);
            // back at work: the first success after the session saw its endpoint die
            if (seen.lostAt !== undefined && seen.recoveredMs === undefined)
              seen.recoveredMs = performance.now() - killedAt();
          } catch (error) {
            errors++;
            const code = error?.code ?? 'unknown';
            seen.codes[code] = (seen.codes[code] ?? 0) + 1;
            seen.messages[code] ??= String(error?.message).slice(0, 160);
            if (killedAt() && seen.lostAt === undefined) seen.lostAt = performance.now();
          }
        }
      }
    }),
  );
  return { latencies, evals, perSession, errors, seconds: (performance.now() - started) / 1000 };
}

/** Median of 100 `eval document.title` calls, one after another. */
async function evalMs(c) {
  const times = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    await c.page.eval.mutate({ js: 'document.title' });
    times.push(performance.now() - t0);
  }
  return median(times);
}

function client(session) {
  const handle = createArgusClient({
    url: `http://127.0.0.1:${daemon.port}`,
    token: daemon.token,
    ...(session ? { session } : {}),
  });
  handles.push(handle);
  return handle.client;
}

async function startChromium() {
  const chrome = await launchChrome({ extraFlags: [PROXY] });
  return { url: chrome.wsEndpoint, pid: chrome.pid, kill: () => chrome.kill() };
}

/**
 * One browserless server on a free port, in its own process group (killed as a group: its Chromium
 * goes with it). Its Playwright registry is pointed at a temp dir holding a link to the system
 * Chromium, and only the Chromium routes are loaded (no Chrome/Edge/Firefox/WebKit builds here).
 */
async function startBrowserless(index) {
  const port = 39_400 + index;
  const token = `bench-${process.pid}-${index}`;
  const registry = join(temp, `pw-${index}`);
  mkdirSync(registry, { recursive: true });
  const script = `
    import { mkdirSync, symlinkSync } from 'node:fs';
    import { dirname } from 'node:path';
    const { chromium } = (await import('playwright-core')).default;
    mkdirSync(dirname(chromium.executablePath()), { recursive: true });
    symlinkSync(${JSON.stringify(CHROME)}, chromium.executablePath());
    const { Browserless } = await import('@browserless.io/browserless');
    const only = new Set(['ChromiumCDP', 'ChromiumPlaywright']);
    const browserless = new Browserless();
    browserless.routeIsDisabled = (route) => Boolean(route.browser && !only.has(route.browser.name));
    await browserless.start();
    console.log('browserless-ready');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: join(options['browserless-dir'], 'node_modules', '@browserless.io', 'browserless'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      TOKEN: token,
      TIMEOUT: '3600000',
      PLAYWRIGHT_BROWSERS_PATH: registry,
      DEBUG: '-*',
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes('browserless-ready') && resolve());
    child.once('exit', (code) => reject(new Error(`browserless exited (${code}): ${log.slice(-800)}`)));
  });
  const launch = encodeURIComponent(JSON.stringify({ args: ['--no-sandbox', PROXY] }));
  // puppeteer starts Chromium in a process group of its own: the tree is collected first, then every
  // group in it is killed (a dead server's Chromium would otherwise be orphaned)
  const kill = async () => {
    const groups = new Set(
      tree(child.pid)
        .map((pid) => groupOf(pid))
        .filter(Boolean),
    );
    const exited =
      child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => child.once('exit', resolve))
        : undefined;
    for (const group of groups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await exited;
  };
  return { url: `ws://127.0.0.1:${port}/chromium?token=${token}&launch=${launch}`, pid: child.pid, kill };
}

async function startDaemon() {
  const workspace = join(temp, 'workspace');
  const stateDir = join(workspace, '.argus');
  mkdirSync(workspace, { recursive: true });
  const main = createRequire(import.meta.url).resolve('@argus/daemon/main');
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_WORKSPACE: workspace, ARGUS_CHROME_FLAGS: PROXY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const match = /argus-daemon ready port=(\d+)/.exec(buffer);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`daemon exited (${code})`)));
  });
  const { token } = JSON.parse(readFileSync(join(stateDir, 'daemon.json'), 'utf8'));
  return { child, pid: child.pid, port, token };
}

/** Median of 200 raw Runtime.evaluate round trips on a fresh tab of the endpoint (no Argus). */
async function rawEvalMs(url) {
  const browser = await CDP({ target: await resolveBrowserEndpoint(url), local: true });
  try {
    const { targetId } = await browser.Target.createTarget({ url: 'about:blank' });
    const { sessionId } = await browser.Target.attachToTarget({ targetId, flatten: true });
    const times = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await browser.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true }, sessionId);
      times.push(performance.now() - t0);
    }
    await browser.Target.closeTarget({ targetId });
    return median(times);
  } finally {
    await browser.close();
  }
}

/** Every process in `root`'s tree (root included), from /proc's parent links. */
function tree(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const walk = (pid) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return out;
}

function groupOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return 0;
  }
}

function treePssMb(root) {
  let kb = 0;
  for (const pid of tree(root)) {
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

/** utime + stime of every process in each root's tree, in seconds (clock ticks: 100 per second here). */
function cpuSeconds(roots) {
  const byRoot = roots.map((root) =>
    tree(root).reduce((sum, pid) => {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return sum + (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return sum;
      }
    }, 0),
  );
  return { byRoot, total: byRoot.reduce((a, b) => a + b, 0) };
}
