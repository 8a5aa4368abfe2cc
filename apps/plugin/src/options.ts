import { parseArgs } from 'node:util';
import { ArgusError } from '@argus/protocol/errors';
import { PROFILES, type Profile, isProfile } from './profiles.js';
import { NO, YES } from './flag-values.js';

export interface PluginOptions {
  profile: Profile;
  /** Explicit tool list (names or profiles); overrides `profile` when set. */
  tools: string[] | undefined;
  /** Wrap page content in the untrusted-content boundary (default on). */
  untrustedEnvelope: boolean;
  /** Leave the daemon (and its browser) running when the agent disconnects, even if this server started it. */
  keepBrowser: boolean;
  /** The named session (own browser context, cookies, tabs) every tool call runs in; undefined: default. */
  session: string | undefined;
  help: boolean;
}

export const USAGE = `Usage: argus-mcp [options]    (same as: argus mcp [options])

Starts the Argus MCP server on stdio. It talks to this workspace's Argus daemon, shared with the
argus CLI: one already running, or else one it runs in its own process (env
ARGUS_MCP_DAEMON=process: in a process of its own).

Options:
  --profile core|full|research|design  Tool set (default core; env ARGUS_MCP_PROFILE)
  --tools a,b,c              Exactly these tools, e.g. click,fill or core,hover (env ARGUS_MCP_TOOLS)
  --no-untrusted-envelope    Do not wrap page content in the untrusted-content boundary
  --keep-browser             When the agent disconnects, leave running the daemon and browser this
                             server started, in a process of their own (default: stop them, or move
                             them to one if another client uses them; env ARGUS_MCP_KEEP_BROWSER=1)
  --session NAME             Run every tool in this named session: its own browser context, cookies
                             and tabs (env ARGUS_SESSION; \`argus sessions\` lists them)
  -h, --help                 Show this help
`;

function splitList(value: string | undefined): string[] | undefined {
  const items = value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items?.length ? items : undefined;
}

function parseProfile(value: string | undefined): Profile {
  if (value === undefined || value === '') return 'core';
  if (!isProfile(value))
    throw new ArgusError('invalid_input', `Unknown profile "${value}"; use ${PROFILES.join(' or ')}.`);
  return value;
}

function parseBoolean(value: string, flag: string): boolean {
  if (YES.test(value)) return true;
  if (NO.test(value)) return false;
  throw new ArgusError('invalid_input', `${flag} takes true or false, not "${value}".`);
}

/** Parses `argus-mcp` arguments (node:util parseArgs), with env fallbacks (handy where a client config has no args). */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): PluginOptions {
  let profile = env.ARGUS_MCP_PROFILE;
  let tools = env.ARGUS_MCP_TOOLS;
  let session = env.ARGUS_SESSION || undefined;
  let untrustedEnvelope = true;
  let keepBrowser = env.ARGUS_MCP_KEEP_BROWSER
    ? parseBoolean(env.ARGUS_MCP_KEEP_BROWSER, 'ARGUS_MCP_KEEP_BROWSER')
    : false;
  let help = false;
  const { tokens } = parseArgs({
    args: [...argv],
    options: {
      profile: { type: 'string' },
      tools: { type: 'string' },
      session: { type: 'string' },
      'untrusted-envelope': { type: 'boolean' },
      'no-untrusted-envelope': { type: 'boolean' },
      'keep-browser': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    // strict off: unknown options and stray words come back as tokens, refused below with our own message
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    const arg = argv[token.index]!;
    if (token.kind !== 'option' || (!token.rawName.startsWith('--') && arg !== token.rawName)) {
      throw new ArgusError('invalid_input', `Unknown option ${arg}. Run argus-mcp --help.`);
    }
    const value = (): string => {
      if (token.inlineValue) return token.value ?? '';
      // a flag right after is not a value (`--tools --profile full`)
      if (token.value === undefined || token.value.startsWith('--'))
        throw new ArgusError('invalid_input', `${token.rawName} needs a value.`);
      return token.value;
    };
    if (token.name === 'profile') profile = value();
    else if (token.name === 'tools') tools = value();
    else if (token.name === 'session') session = value();
    else if (token.name === 'untrusted-envelope')
      untrustedEnvelope = token.inlineValue ? parseBoolean(token.value ?? '', token.rawName) : true;
    else if (token.name === 'no-untrusted-envelope') untrustedEnvelope = false;
    else if (token.name === 'keep-browser') keepBrowser = true;
    else if (token.name === 'help') help = true;
    else throw new ArgusError('invalid_input', `Unknown option ${arg}. Run argus-mcp --help.`);
  }
  return {
    profile: parseProfile(profile),
    tools: splitList(tools),
    untrustedEnvelope,
    keepBrowser,
    session,
    help,
  };
}
