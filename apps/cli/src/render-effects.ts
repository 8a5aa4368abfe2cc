/** What an input action caused (ActionEffects in the manifest), as lines under its own line. */
export interface Effects {
  navigated?: boolean;
  url?: string;
  dialogs?: Array<{ type: string; message: string; handled: string }>;
  consoleErrors?: string[];
}

export function effectsLines(output: Effects): string[] {
  const lines: string[] = [];
  if (output.navigated && output.url) lines.push(`navigated to ${output.url}`);
  for (const dialog of output.dialogs ?? []) lines.push(`dialog ${dialog.type} "${dialog.message}" (${dialog.handled})`);
  for (const error of output.consoleErrors ?? []) lines.push(`console error: ${error}`);
  return lines;
}
