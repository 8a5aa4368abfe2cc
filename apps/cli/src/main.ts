import { abandonEarlyStart } from '@argus/client/daemon-spawn';
import { ArgusError } from '@argus/protocol/errors';
import { UsageError, findCommand, parseCommandArgs, takeGlobalFlags, withFollow, withTab } from './args.js';
import { exitOnBrokenPipe } from './broken-pipe.js';
import { compoundInput, fillFromStdin } from './compound.js';
import { builtinHelp, commandHelp, generalHelp } from './help.js';
import { unknownCommand } from './suggest.js';
import { groupHelp, verbGroup } from './verb-groups.js';
import { envelopeOutput, envelopeText } from './envelope.js';
import { startProgress } from './progress.js';

// tRPC's HTTP link checks `input instanceof FormData` on every call; in Node 20 the first touch of
// the FormData global loads undici (~11 ms, a sixth of the CLI's own start-up). This process never
// sends form data, so a local stand-in keeps the check and skips the load. Scripts are unaffected.
Object.defineProperty(globalThis, 'FormData', { value: class FormData {}, configurable: true, writable: true });

const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const err = (text: string) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);

/**
 * `argus help [verb | group]` and `argus <group> --help`: the help text, or a usage error for a word
 * that names nothing.
 */
function helpFor(words: readonly string[]): string {
  const [first] = words;
  if (first === undefined) return generalHelp();
  const found = findCommand(words);
  if (found) return commandHelp(found.command);
  const builtin = builtinHelp(first);
  if (builtin) return builtin;
  const group = words.length === 1 ? verbGroup(first) : undefined;
  if (group) return groupHelp(group);
  throw new UsageError(unknownCommand(words));
}

/** Commands whose text already names tabs by short id (`tabs`, `newtab`, `tab`): no listing to ask for. */
const OWN_TAB_NAMES = new Set(['tabs.list', 'tabs.open', 'tabs.select']);

/** Set once the global flags are read: errors print as JSON on stderr under `--json`. */
let jsonErrors = false;

/** `status` and `stop` report on the running daemon; with none running they say so and start nothing. */
async function withoutDaemon(name: string, json: boolean): Promise<number | undefined> {
  if (name !== 'daemon.status' && name !== 'daemon.stop') return undefined;
  const { runningDaemon } = await import('./connection.js');
  if (await runningDaemon()) return undefined;
  const { stateDirFor } = await import('@argus/client');
  const stateDir = stateDirFor(process.cwd(), process.env);
  if (json) out(JSON.stringify({ running: false, stateDir }, null, 2));
  else if (name === 'daemon.stop')
    out(`no Argus daemon is running for this workspace (state dir ${stateDir}); nothing to stop`);
  else
    out(
      `no Argus daemon is running for this workspace (state dir ${stateDir}); the next command that needs the browser starts one, e.g. \`argus goto <url>\``,
    );
  // `status` exits 3 (not running), as service managers do; `stop` has nothing to do and succeeds
  return name === 'daemon.status' ? 3 : 0;
}

async function main(argv: string[]): Promise<number> {
  const stopExitOnBrokenPipe = exitOnBrokenPipe([process.stdout, process.stderr]);
  const { flags, rest } = takeGlobalFlags(argv);
  // `argus mcp` owns its stdio: its server shuts down cleanly (its daemon link too) when stdout closes
  if (rest[0] === 'mcp') stopExitOnBrokenPipe();
  jsonErrors = flags.json;
  // the connection (and `argus mcp`'s daemon link) read the session from the environment
  if (flags.session !== undefined) process.env.ARGUS_SESSION = flags.session;
  // the daemon this CLI starts inherits it (config key chrome.profile); a running one is checked against it
  if (flags.profile !== undefined) process.env.ARGUS_PROFILE = flags.profile;
  // the connection presents the lease and the wait on every call, like the session
  if (flags.lease !== undefined) process.env.ARGUS_LEASE = flags.lease;
  if (flags.leaseWait !== undefined) process.env.ARGUS_LEASE_WAIT = flags.leaseWait;
  const [first] = rest;
  if (first === '--version' || first === '-V') {
    const { cliVersion } = await import('./version.js');
    out(`argus ${cliVersion()}`);
    return 0;
  }
  if (!first || first === 'help') {
    // `argus help mcp` is `argus mcp --help`: the MCP server's own options
    if (rest[1] === 'mcp' && rest.length === 2) {
      const { runMcpServer } = await import('@argus/plugin/server');
      return runMcpServer(['--help']);
    }
    out(helpFor(rest.slice(1)));
    return 0;
  }
  if (flags.help && first !== 'mcp' && builtinHelp(first)) {
    out(builtinHelp(first) as string);
    return 0;
  }
  if (first === 'demo') {
    const { runDemo } = await import('./demo.js');
    await runDemo(out, err);
    return 0;
  }
  if (first === 'install-browser') {
    const { runInstallBrowser } = await import('./install-browser.js');
    return runInstallBrowser(out, err);
  }
  if (first === 'mcp') {
    // The MCP server (stdio) from @argus/plugin; it owns the process and exits when stdin closes.
    const { runMcpServer } = await import('@argus/plugin/server');
    return runMcpServer(flags.help ? ['--help', ...rest.slice(1)] : rest.slice(1));
  }
  const found = findCommand(rest);
  if (!found) {
    // `argus config --help` lists the group's subcommands; `argus config` alone is a usage error that does too
    const group = rest.length === 1 ? verbGroup(first) : undefined;
    if (group && flags.help) {
      out(groupHelp(group));
      return 0;
    }
    throw new UsageError(unknownCommand(rest));
  }
  // `console --errors --follow` -> the `console --follow` stream
  const { command, args: typed } = withFollow(found.command, rest.slice(found.used));
  if (flags.help) {
    out(commandHelp(command));
    return 0;
  }
  const args = withTab(command, typed, flags.tab);
  const input = (await compoundInput(command, args)) ?? (await fillFromStdin(command, parseCommandArgs(command, args)));
  // status, stop and the profile list run on whatever daemon runs, whatever its profile
  if (/^(daemon|profile|journal)\./.test(command.name)) delete process.env.ARGUS_PROFILE;
  const idle = await withoutDaemon(command.name, flags.json);
  if (idle !== undefined) return idle;
  if (command.kind === 'subscription') {
    const { runFollow } = await import('./follow.js');
    return runFollow(command, input, { json: flags.json, out, err });
  }
  const { withDaemon, call, waitForDaemonExit, waitForRestart, startingNotice, browserFree } = await import(
    './connection.js'
  );
  // a crawl reports its own progress on stderr (pages done / queued / failed, rate) instead of the wait ticker
  const crawlWatch = command.name === 'web.crawl' ? await import('./crawl-progress.js') : undefined;
  // with --json, stderr carries only the JSON error: no wait ticker there, no starting notice below
  const progress =
    crawlWatch || flags.json
      ? { starting: () => undefined, stop: () => undefined }
      : startProgress(command, input, err);
  // the renderers load while the command runs (on a cold start, the CLI waits ~1 s for the browser)
  const renderer = flags.json ? undefined : import('./render.js');
  renderer?.catch(() => undefined);
  const notice = flags.json ? () => undefined : startingNotice(command.name, err);
  const onStart = () => {
    progress.starting();
    notice();
  };
  const { value, connection } = await withDaemon(
    (connection) =>
      crawlWatch
        ? crawlWatch.withCrawlProgress(connection, input, err, (withJob) =>
            call(connection, command.name, command.kind, withJob),
          )
        : call(connection, command.name, command.kind, input),
    onStart,
  ).finally(() => progress.stop());
  // `argus stop` returns once the daemon has exited (its browser closed), not when it was asked to
  if (command.name === 'daemon.stop' && (value as { stopping: boolean }).stopping)
    await waitForDaemonExit(connection.state.pid, err);
  // `argus restart` returns once the new daemon is up with the old one's tabs
  if (command.name === 'daemon.restart')
    (value as { newPid: number | null }).newPid = await waitForRestart(connection.state.pid, err);
  if (flags.json) out(JSON.stringify(flags.untrustedEnvelope ? envelopeOutput(command, value) : value, null, 2));
  else {
    const { render } = await (renderer ?? import('./render.js'));
    // tabs named by their short id, as `argus tabs` lists them; the listing never starts a browser
    const status = command.name === 'daemon.status' ? (value as { browser?: { running?: boolean } }) : undefined;
    const shown =
      OWN_TAB_NAMES.has(command.name) || (browserFree(command.name) && !status?.browser?.running)
        ? value
        : await (
            await import('./tab-names.js')
          ).withShortTabIds(
            value,
            () => call(connection, 'tabs.list', 'query', {}) as Promise<{ tabs: Array<{ id: string }> }>,
          );
    const text = render(command, shown, input);
    out(flags.untrustedEnvelope ? envelopeText(command, shown, text) : text);
  }
  // a chain that stopped at a failing step, or a batch with failures, is a failed command
  const outcome = value as { ok?: unknown; failed?: unknown } | null;
  return (command.name === 'batch.chain' && outcome?.ok === false) ||
    (command.name === 'batch.run' && Number(outcome?.failed) > 0)
    ? 1
    : 0;
}

// a daemon started early (entry.ts) for a command that then failed before connecting is stopped again
main(process.argv.slice(2))
  .finally(abandonEarlyStart)
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const failure =
        error instanceof UsageError
          ? { code: 'usage', message: error.message, exit: 2 }
          : error instanceof ArgusError
            ? {
                code: error.code,
                message: error.message,
                details: error.details,
                exit: error.code === 'invalid_input' ? 2 : 1,
              }
            : { code: 'internal', message: (error as Error)?.stack ?? String(error), exit: 1 };
      process.exitCode = failure.exit;
      if (jsonErrors) {
        const { exit: _exit, ...body } = failure;
        err(JSON.stringify({ error: body }));
      } else
        err(
          failure.code === 'usage' ? `usage error: ${failure.message}` : `error[${failure.code}]: ${failure.message}`,
        );
    },
  );
