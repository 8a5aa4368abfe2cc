import type { z } from 'zod';

export type CommandKind = 'query' | 'mutation' | 'subscription';
export type Scope = 'read' | 'write' | 'admin';

export interface CliSpec {
  /** The verb typed after `argus` (may contain a space for sub-verbs, e.g. `network get`). */
  verb: string;
  /** Input fields filled from positional arguments, in order. A trailing `...` on the last one collects the rest. */
  positionals?: readonly string[];
  /** Other verbs that run this command: the words users of other tools type first (`open` for `goto`). */
  verbAliases?: readonly string[];
  /** Flag aliases: one letter (`{ i: 'interactive' }` for `-i`) or a second long name (`{ param: 'params' }` for `--param`). */
  aliases?: Readonly<Record<string, string>>;
  /**
   * An input field read as JSON from stdin when its flag is left out or given as `-` (a patch's
   * operations): data too large or too quoted for a command line.
   */
  stdinJson?: string;
  /** Example invocations for `--help` and docs. */
  examples?: readonly string[];
}

export interface CommandDef<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodType = z.ZodType,
  K extends CommandKind = CommandKind,
> {
  /** Contract path, `<namespace>.<name>`; the tRPC procedure path. */
  name: string;
  cli: CliSpec | false;
  /** MCP / plugin tool name, or false when not exposed to agents. */
  tool: string | false;
  kind: K;
  scope: Scope;
  summary: string;
  input: I;
  output: O;
  /** Output fields that carry page content (marked untrusted for agents). */
  pageContent?: readonly string[];
}

/**
 * Output fields that carry text from the page wherever they appear: a dialog's message, a console
 * error and a field's validation message (the action effects), a page's title, the snapshot diff an
 * action returns, and the element an action names (`element`, `typedInto`: its accessible name is
 * the page's text, and so is the `locator` built from it). Every command whose output has them
 * marks them as page content, so no command can forget to.
 */
export const EFFECT_PAGE_FIELDS = [
  'dialogs',
  'consoleErrors',
  'title',
  'diff',
  'invalid',
  'element',
  'typedInto',
  'locator',
] as const;

/**
 * What a command file writes: the command, with its input and output schemas as functions that
 * make them. defineCommand makes each one at its first use, so a process builds only the schemas of
 * the commands it runs or describes: the daemon, the MCP server and the CLI start without building
 * the whole manifest (about two thirds of its zod calls are in these schemas; issue 16).
 */
export type CommandSpec<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodType = z.ZodType,
  K extends CommandKind = CommandKind,
> = Omit<CommandDef<I, O, K>, 'input' | 'output'> & { input: () => I; output: () => O };

export function defineCommand<I extends z.ZodObject, O extends z.ZodType, K extends CommandKind>(
  spec: CommandSpec<I, O, K>,
): CommandDef<I, O, K> {
  const { input: makeInput, output: makeOutput, pageContent: declared, ...rest } = spec;
  let input: I | undefined;
  let output: O | undefined;
  let pageContent: { fields: readonly string[] | undefined } | undefined;
  return {
    ...rest,
    get input() {
      return (input ??= makeInput());
    },
    get output() {
      return (output ??= makeOutput());
    },
    get pageContent() {
      pageContent ??= { fields: withEffectFields(declared, this.output) };
      return pageContent.fields;
    },
  };
}

/** The declared page-content fields plus the effect fields the output has (EFFECT_PAGE_FIELDS). */
function withEffectFields(declared: readonly string[] | undefined, output: z.ZodType): readonly string[] | undefined {
  const shape = (output as { shape?: Record<string, unknown> }).shape;
  const missing = shape ? EFFECT_PAGE_FIELDS.filter((field) => field in shape && !declared?.includes(field)) : [];
  return missing.length ? [...(declared ?? []), ...missing] : declared;
}

export type AnyCommand = CommandDef<z.ZodObject, z.ZodType, CommandKind>;
