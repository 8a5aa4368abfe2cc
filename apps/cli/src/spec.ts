import type { CliSpec, CommandKind, FieldInfo, Scope } from '@argus/protocol';
import commands from './generated/commands.json' with { type: 'json' };

/** A manifest command as the CLI sees it: generated from the manifest at build time. */
export interface CliCommand {
  name: string;
  cli: CliSpec | false;
  tool: string | false;
  kind: CommandKind;
  scope: Scope;
  summary: string;
  pageContent: readonly string[];
  fields: readonly FieldInfo[];
}

// The JSON is produced by scripts/gen-spec.mjs from the same manifest the daemon serves.
const all = commands as unknown as CliCommand[];

export function cliCommands(): readonly CliCommand[] {
  return all;
}
