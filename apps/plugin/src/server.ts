import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { abandonEarlyStart } from '@argus/client/daemon-spawn';
import { isArgusError } from '@argus/protocol/errors';
import { DaemonLink } from './daemon-link.js';
import { createMcpServer } from './mcp-server.js';
import { SkillTools } from './skill-tools.js';
import { USAGE, parseOptions } from './options.js';

export { USAGE } from './options.js';

/**
 * Runs the MCP server on stdio until stdin closes (or SIGINT/SIGTERM), then exits the process.
 * It owns the process: stdout carries only protocol messages, diagnostics go to stderr. A daemon this
 * server started stops with it (unless another client uses it, or --keep-browser); one it found
 * running is shared with the CLI and stays (it stops on `argus stop` or when idle).
 */
export async function runMcpServer(argv: readonly string[] = process.argv.slice(2)): Promise<never> {
  let options: ReturnType<typeof parseOptions>;
  let server: ReturnType<typeof createMcpServer>;
  let link: DaemonLink;
  let skills: SkillTools | undefined;
  try {
    options = parseOptions(argv);
    if (options.help) {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    link = new DaemonLink({ session: options.session });
    skills = new SkillTools();
    server = createMcpServer({ options, caller: link, approvals: link, skills, inbox: link });
    link.prestart();
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
    if (reason !== 'stdin closed') process.stderr.write(`argus-mcp: exiting (${reason})\n`);
    const timer = setTimeout(() => process.exit(code), 2_000);
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

  await server.connect(new StdioServerTransport());
  // Resolves only through shutdown's process.exit.
  return new Promise<never>(() => undefined);
}
