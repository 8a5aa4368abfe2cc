import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { abandonEarlyStart } from '@argus/client/daemon-spawn';
import { isArgusError } from '@argus/protocol/errors';
import { DaemonLink } from './daemon-link.js';
import { hostsDaemon } from './hosted-daemon.js';
import { createMcpServer } from './mcp-server.js';
import { SkillTools } from './skill-tools.js';
import { USAGE, parseOptions } from './options.js';

export { USAGE } from './options.js';

/**
 * Runs the MCP server on stdio until stdin closes (or SIGINT/SIGTERM), then exits the process.
 * It owns the process: stdout carries only protocol messages, diagnostics go to stderr. When no
 * daemon runs for the workspace, this process hosts it (hostsDaemon): it stops with the server, or,
 * when another client uses it, moves to a daemon process of its own with the browser's tabs and
 * cookies (DaemonLink.close). With --keep-browser the daemon is a process of its own from the start
 * and stays. One it found running is shared with the CLI and stays (it stops on `argus stop` or when idle).
 */
/**
 * How long after `initialized` a hosted daemon's modules begin to load. In 5 cold starts here the
 * SDK client's first call reached the server 2-3 ms after it, while the load blocks the server for
 * ~50 ms. A call that comes later finds the daemon loading or up, as before.
 */
const PRESTART_AFTER_MS = 25;

export async function runMcpServer(argv: readonly string[] = process.argv.slice(2)): Promise<never> {
  let options: ReturnType<typeof parseOptions>;
  let server: ReturnType<typeof createMcpServer>;
  let link: DaemonLink;
  let skills: SkillTools | undefined;
  let host = false;
  let prestartTimer: NodeJS.Timeout | undefined;
  try {
    options = parseOptions(argv);
    if (options.help) {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    host = hostsDaemon(options.keepBrowser);
    link = new DaemonLink({ session: options.session, host });
    skills = new SkillTools();
    server = createMcpServer({
      options,
      caller: link,
      approvals: link,
      skills,
      inbox: link,
      cueBrowser: () => link.cueBrowser(),
    });
    // a hosted daemon's modules load once the agent has its answer to initialize, not meanwhile; and
    // PRESTART_AFTER_MS later: an agent's first call usually follows `initialized` within a few ms,
    // and its browser cue then launches Chromium before the daemon's modules are evaluated (one
    // synchronous stretch of ~50 ms, which the call waited behind when it came during it: issue 16)
    if (host) server.oninitialized = () => (prestartTimer = setTimeout(() => link.prestart(), PRESTART_AFTER_MS));
    else link.prestart();
  } catch (error) {
    // a daemon argus-mcp's entry started for this server goes too
    abandonEarlyStart();
    process.stderr.write(
      isArgusError(error) ? `argus-mcp: ${error.message}\n${USAGE}` : `argus-mcp: ${String(error)}\n`,
    );
    process.exit(2);
  }

  let exiting = false;
  const shutdown = async (reason: string, code = 0): Promise<void> => {
    if (exiting) return;
    exiting = true;
    // an agent gone within PRESTART_AFTER_MS of `initialized` leaves no daemon starting behind
    clearTimeout(prestartTimer);
    if (reason !== 'stdin closed') process.stderr.write(`argus-mcp: exiting (${reason})\n`);
    // a hosted daemon may hand over to a process of its own (state saved, browser closed, a start):
    // within an MCP client's SIGTERM-then-SIGKILL grace (2 s each)
    const timer = setTimeout(() => process.exit(code), link.hosting ? 3_500 : 2_000);
    timer.unref();
    skills?.close();
    // the daemon (and browser) this server started goes with its agent, unless others use it or --keep-browser
    await Promise.allSettled([server.close(), link.close({ stopOwnDaemon: !options.keepBrowser })]);
    process.exit(code);
  };
  process.stdin.once('end', () => void shutdown('stdin closed'));
  process.stdin.once('close', () => void shutdown('stdin closed'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.stdout.on('error', () => void shutdown('stdout closed'));
  if (host) {
    // as the daemon process does: a fault in a command is logged, and the agent keeps its tools
    process.on('uncaughtException', (error) => process.stderr.write(`argus-mcp: uncaught ${error.stack ?? error}\n`));
    process.on('unhandledRejection', (reason) =>
      process.stderr.write(`argus-mcp: unhandled rejection ${String((reason as Error)?.message ?? reason)}\n`),
    );
  }

  await server.connect(new StdioServerTransport());
  // Resolves only through shutdown's process.exit.
  return new Promise<never>(() => undefined);
}
