import { type RenderContext, renderCommand } from '@argus/protocol/render';
import { commandLine, replayLine } from './command-line.js';
import { type CliCommand, cliCommands } from './spec.js';

const byName = (name: string) => cliCommands().find((command) => command.name === name);

/** The renderers' context for a person at a terminal: verbs, `argus …` lines, replay lines. */
export function cliContext(input: Readonly<Record<string, unknown>>): RenderContext {
  return {
    surface: 'cli',
    input,
    label: (name) => {
      const command = byName(name);
      return command && command.cli !== false ? command.cli.verb : name;
    },
    hint: (name, hintInput = {}) => {
      const command = byName(name);
      return command ? `\`${commandLine(command, hintInput)}\`` : name;
    },
    replay: (name, output, actionInput) => {
      const command = byName(name);
      return command ? replayLine(command, output, actionInput) : undefined;
    },
  };
}

/** Plain-text rendering of a command's output (the CLI's default; `--json` prints the object). */
export function render(command: CliCommand, output: unknown, input: Readonly<Record<string, unknown>> = {}): string {
  return renderCommand(command.name, output, cliContext(input));
}
