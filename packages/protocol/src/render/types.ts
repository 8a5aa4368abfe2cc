import type { z } from 'zod';
import type { Manifest, Namespace } from '../manifest.js';

/** Contract path of every manifest command (`page.goto`), as a type: the key of the renderer table. */
export type CommandName = {
  [N in Namespace]: `${N}.${Extract<keyof Manifest[N], string>}`;
}[Namespace];

/** The output type of a command, as the daemon returns it (after the output schema's transforms). */
export type OutputOf<P extends CommandName> = P extends `${infer N extends Namespace}.${infer K}`
  ? K extends keyof Manifest[N]
    ? Manifest[N][K] extends { output: infer O extends z.ZodType }
      ? z.output<O>
      : never
    : never
  : never;

/** Who reads the text: a person at a terminal (CLI) or an agent (MCP tool, OpenCode tool). */
export type Surface = 'cli' | 'agent';

export interface RenderContext {
  surface: Surface;
  /** The input the command ran with (after the adapter parsed it). */
  input: Readonly<Record<string, unknown>>;
  /** A command's name in the reader's words: `goto` (CLI) or `argus_goto` (agent). */
  label(command: string): string;
  /**
   * How to say "run this next" in the reader's words: `argus snapshot --cursor c1` for the CLI,
   * `argus_snapshot {"cursor":"c1"}` for an agent.
   */
  hint(command: CommandName, input?: Readonly<Record<string, unknown>>): string;
  /**
   * A sentence of Argus's own that names commands (a challenge's "Hand the tab to a person: `argus
   * handoff …`"), in the reader's words: as it is for the CLI (the default); for an agent, tool
   * calls, a tool its list lacks said to be missing and how to get it. Never for page text.
   */
  say?(message: string): string;
  /** The CLI line that repeats an action by its stable locator (CLI only; undefined when none). */
  replay?(
    command: CommandName,
    output: { locator?: string | undefined; toLocator?: string | undefined },
    input: Readonly<Record<string, unknown>>,
  ): string | undefined;
}

export type Renderer<P extends CommandName> = (output: OutputOf<P>, context: RenderContext) => string;

/** One renderer per command: a command without one, or a renderer reading a field its output lacks, does not compile. */
export type Renderers = { [P in CommandName]: Renderer<P> };

/** The renderers of one namespace (one file each), complete for that namespace. */
export type RenderersOf<N extends Namespace> = {
  [P in Extract<CommandName, `${N}.${string}`>]: Renderer<P>;
};
