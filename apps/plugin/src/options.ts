import { ArgusError } from '@argus/protocol/errors';
import { PROFILES, type Profile, isProfile } from './profiles.js';

export interface PluginOptions {
  profile: Profile;
  /** Explicit tool list (names or profiles); overrides `profile` when set. */
  tools: string[] | undefined;
  /** Wrap page content in the untrusted-content boundary (default on). */
  untrustedEnvelope: boolean;
  help: boolean;
}

export const USAGE = `Usage: argus-mcp [options]    (same as: argus mcp [options])

Starts the Argus MCP server on stdio. It talks to this workspace's Argus daemon (started on
demand and shared with the argus CLI).

Options:
  --profile core|full        Tool set (default core; env ARGUS_MCP_PROFILE)
  --tools a,b,c              Exactly these tools, e.g. click,fill or core,hover (env ARGUS_MCP_TOOLS)
  --no-untrusted-envelope    Do not wrap page content in the untrusted-content boundary
  -h, --help                 Show this help
`;

function splitList(value: string | undefined): string[] | undefined {
  const items = value?.split(',').map((item) => item.trim()).filter(Boolean);
  return items?.length ? items : undefined;
}

function parseProfile(value: string | undefined): Profile {
  if (value === undefined || value === '') return 'core';
  if (!isProfile(value)) throw new ArgusError('invalid_input', `Unknown profile "${value}"; use ${PROFILES.join(' or ')}.`);
  return value;
}

function parseBoolean(value: string, flag: string): boolean {
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ArgusError('invalid_input', `${flag} takes true or false, not "${value}".`);
}

/** Parses `argus-mcp` arguments, with env fallbacks (handy where a client config has no args). */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): PluginOptions {
  let profile = env.ARGUS_MCP_PROFILE;
  let tools = env.ARGUS_MCP_TOOLS;
  let untrustedEnvelope = true;
  let help = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[index + 1];
      if (next === undefined || next.startsWith('--')) throw new ArgusError('invalid_input', `${flag} needs a value.`);
      index += 1;
      return next;
    };
    if (flag === '--profile') profile = value();
    else if (flag === '--tools') tools = value();
    else if (flag === '--untrusted-envelope') untrustedEnvelope = inline === undefined ? true : parseBoolean(inline, flag);
    else if (flag === '--no-untrusted-envelope') untrustedEnvelope = false;
    else if (flag === '--help' || flag === '-h') help = true;
    else throw new ArgusError('invalid_input', `Unknown option ${arg}. Run argus-mcp --help.`);
  }
  return { profile: parseProfile(profile), tools: splitList(tools), untrustedEnvelope, help };
}
