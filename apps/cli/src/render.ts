import type { CliCommand } from './spec.js';
import { extensionLine, sessionRenderers } from './render-session.js';
import { captureRenderers } from './render-capture.js';
import { readingRenderers } from './render-reading.js';
import { type Effects, effectsLines } from './render-effects.js';
import { interactionRenderers } from './render-interaction.js';
import { tokenRenderers } from './render-tokens.js';
import { actionExtras } from './render-replay.js';

type Output = Record<string, unknown>;

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function generic(output: unknown): string {
  if (output === null || typeof output !== 'object') return scalar(output);
  return Object.entries(output as Output)
    .map(
      ([key, value]) =>
        `${key}: ${value !== null && typeof value === 'object' ? JSON.stringify(value) : scalar(value)}`,
    )
    .join('\n');
}

const RENDERERS: Record<string, (output: Output) => string> = {
  ...sessionRenderers,
  ...captureRenderers,
  ...readingRenderers,
  ...interactionRenderers,
  ...tokenRenderers,
  'snapshot.take': (output) =>
    String(output.text ?? '') + (output.cursor ? `\n[truncated: continue with --cursor ${String(output.cursor)}]` : ''),
  'read.text': (output) => String(output.text ?? '') + (output.truncated ? '\n[truncated]' : ''),
  'read.html': (output) => String(output.html ?? '') + (output.truncated ? '\n[truncated]' : ''),
  'page.url': (output) => String(output.url),
  'page.eval': (output) => (typeof output.value === 'string' ? output.value : JSON.stringify(output.value, null, 2)),
  'tabs.list': (output) =>
    (output.tabs as Array<{ id: string; title: string; url: string; active: boolean }>)
      .map((tab) => `${tab.active ? '*' : ' '} ${tab.id}  ${tab.title || '(untitled)'}  ${tab.url}`)
      .join('\n') || '(no tabs)',
  'daemon.status': (output) => {
    const browser = output.browser as {
      running: boolean;
      pid: number | null;
      version: string | null;
      crashed: boolean;
    };
    return [
      `daemon  running (pid ${output.pid}, v${output.version}, up ${Math.round(Number(output.uptimeMs) / 1000)} s)`,
      `mode    ${output.mode}`,
      `browser ${browser.running ? `running (pid ${browser.pid ?? '-'}, ${browser.version ?? ''})` : browser.crashed ? 'crashed (relaunches on next command)' : 'not started (starts on the first page command)'}`,
      `tabs    ${output.tabs}${output.activeTab ? ` (active ${output.activeTab})` : ''}`,
      ...(output.tokens === undefined ? [] : [`tokens  ${output.tokens} (\`argus token create\` mints scoped ones)`]),
      `extension ${extensionLine(output.extension as Parameters<typeof extensionLine>[0])}`,
      `state   ${output.stateDir}`,
      `log     ${output.logFile}`,
    ].join('\n');
  },
};

/**
 * Plain-text rendering of a command's output (the CLI's default; `--json` prints the object). An
 * action's result ends with the `argus` line that replays it by locator, and the diff when asked.
 */
export function render(command: CliCommand, output: unknown, input: Record<string, unknown> = {}): string {
  return [renderBody(command, output), ...actionExtras(command, output, input)].join('\n');
}

function renderBody(command: CliCommand, output: unknown): string {
  const specific = RENDERERS[command.name];
  if (specific) return specific(output as Output);
  if (output && typeof output === 'object' && 'element' in output) {
    const o = output as Output & Effects;
    const verb = command.cli === false ? command.name : command.cli.verb;
    const detail =
      'value' in o
        ? ` = ${JSON.stringify(o.value)}`
        : 'selected' in o
          ? ` -> ${JSON.stringify((o.selected as { label: string }).label)}`
          : '';
    return [`${verb} ${o.element}${detail}`, ...effectsLines(o)].join('\n');
  }
  if (output && typeof output === 'object' && 'navigated' in output && 'consoleErrors' in output) {
    const lines = effectsLines(output as Effects);
    return lines.length ? lines.join('\n') : 'ok';
  }
  if (output && typeof output === 'object' && 'url' in output && 'title' in output && 'status' in output) {
    const o = output as Output;
    return `${o.title ? `${o.title} — ` : ''}${o.url}${o.status ? ` (${o.status})` : ''}`;
  }
  return generic(output);
}
