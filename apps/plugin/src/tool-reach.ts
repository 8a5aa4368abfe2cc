import type { ToolSelection } from './profiles.js';

/**
 * Which tools this server lists, and what to tell an agent about one it does not: an error's hint
 * may name any command (`argus downloads`), while a `core` agent has no `argus_downloads` to call
 * (errors.ts withToolNames says so instead of offering it).
 */
export class ToolReach {
  private readonly listed: ReadonlySet<string>;

  /** `howToGet(tool)`: where the agent's tool list leaves it out and how to get it (`not in ...`). */
  constructor(
    listed: Iterable<string>,
    private readonly howToGet: (tool: string) => string,
  ) {
    this.listed = new Set(listed);
  }

  /** Whether the agent has the tool. */
  has(tool: string): boolean {
    return this.listed.has(tool);
  }

  missing(tool: string): string {
    return this.howToGet(tool);
  }
}

/**
 * For tools chosen by a profile or a tool list: the agent cannot change its own list; whoever starts
 * it can, with the list now plus that tool or the full profile: argus-mcp's `--tools` / `--profile`
 * (`host` 'mcp'), the OpenCode plugin's `tools` / `profile` options in opencode.json ('opencode').
 */
export function selectionReach(
  listed: Iterable<string>,
  selection: ToolSelection = {},
  host: 'mcp' | 'opencode' = 'mcp',
): ToolReach {
  const explicit = selection.tools?.map((name) => name.trim()).filter(Boolean);
  const current = explicit?.length ? explicit : [selection.profile ?? 'core'];
  const mcp = host === 'mcp';
  const described = explicit?.length
    ? `this ${mcp ? 'server' : 'plugin'}'s ${mcp ? '`--tools`' : '`tools`'} list`
    : `this ${mcp ? 'server' : 'plugin'}'s ${current[0]} profile`;
  return new ToolReach(listed, (tool) => {
    const wanted = [...current, tool.replace(/^argus_/, '')];
    const how = mcp
      ? `starting argus-mcp with \`--tools ${wanted.join(',')}\` or \`--profile full\``
      : `its opencode.json options \`"tools": ${JSON.stringify(wanted)}\` or \`"profile": "full"\``;
    return `not in ${described}: ${how} adds it`;
  });
}
