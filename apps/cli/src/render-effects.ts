/** What an input action caused (ActionEffects in the manifest), as lines under its own line. */
export interface Effects {
  navigated?: boolean;
  url?: string;
  dialogs?: Array<{ type: string; message: string; handled: string }>;
  consoleErrors?: string[];
  openedTabs?: Array<{ id: string; url: string }>;
  download?: { url: string; filename: string } | null;
}

export function effectsLines(output: Effects): string[] {
  const lines: string[] = [];
  if (output.navigated && output.url) lines.push(`navigated to ${output.url}`);
  for (const tab of output.openedTabs ?? []) lines.push(`opened tab ${tab.id} ${tab.url}`);
  if (output.download) lines.push(`download started: ${output.download.filename || output.download.url}`);
  for (const dialog of output.dialogs ?? [])
    lines.push(`dialog ${dialog.type} "${dialog.message}" (${dialog.handled})`);
  for (const error of output.consoleErrors ?? []) lines.push(`console error: ${error}`);
  return lines;
}
