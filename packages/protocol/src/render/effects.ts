import type { z } from 'zod';
import type { ActionEffects } from '../common.js';
import type { CommandName, RenderContext } from './types.js';

export type Effects = z.output<typeof ActionEffects>;

/** What an input action caused (navigation, tabs, download, dialogs, console errors), one line each. */
export function effectsLines(output: Effects, context?: RenderContext): string[] {
  const lines: string[] = [];
  if (output.navigated) lines.push(`navigated to ${output.url}`);
  lines.push(...frameClearedLines(output.frameCleared));
  for (const tab of output.openedTabs) lines.push(`opened tab ${tab.id} ${tab.url}`);
  if (output.download) lines.push(`download started: ${output.download.filename || output.download.url}`);
  lines.push(...dialogLines(output.dialogs));
  for (const field of output.invalid ?? []) lines.push(`form not submitted: ${field.element}: ${field.message}`);
  for (const error of output.consoleErrors) lines.push(`console error: ${error}`);
  if (output.challenge) lines.push(challengeLine(output.challenge, context));
  return lines;
}

/** The dialogs a reply reports (opened during the command, or since the previous reply), one line each. */
export function dialogLines(dialogs: Effects['dialogs'] | undefined): string[] {
  return (dialogs ?? []).map((dialog) => `dialog ${dialog.type} "${dialog.message}" (${dialog.handled})`);
}

/**
 * A list or a long document with the dialogs since the previous reply before it, as in a snapshot:
 * a long reply must not bury them.
 */
export function dialogsFirst(output: { dialogs?: Effects['dialogs'] | undefined }, body: string): string {
  return [...dialogLines(output.dialogs), body].join('\n');
}

/** A login wall, CAPTCHA, bot check or consent wall the new page shows, and what to do about it. */
export function challengeLine(challenge: NonNullable<Effects['challenge']>, context?: RenderContext): string {
  // the hint names the handoff command: an agent whose tools lack it is told so (RenderContext.say)
  const hint = context?.say ? context.say(challenge.hint) : challenge.hint;
  return `challenge: ${challenge.kind.replace('_', ' ')}: ${hint}`;
}

/** The frame choice a navigation of the top document ended (`frameCleared`), and where commands run now. */
export function frameClearedLines(cleared: string | undefined): string[] {
  return cleared === undefined
    ? []
    : [
        `frame choice ended: \`${cleared}\` chose a frame of the page this navigation left; commands run in the top document now (choose again with \`argus frame <iframe>\`)`,
      ];
}

/**
 * An action's reply: its own line, what it caused, the CLI line that replays it by locator (refs
 * die with the page), then the snapshot diff when asked for.
 */
export function actionText(
  command: CommandName,
  head: string,
  output: Effects & { toLocator?: string | undefined },
  context: RenderContext,
): string {
  const lines = [head, ...effectsLines(output, context)];
  const replay = context.replay?.(command, output, context.input);
  if (replay) lines.push(`replay: ${replay}`);
  if (output.diff !== undefined) lines.push(output.diff ? `diff:\n${output.diff}` : 'diff: (no change)');
  return lines.join('\n');
}
