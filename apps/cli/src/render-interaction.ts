/** Plain-text renderers for interaction, page tools, emulation and state commands (`--json` prints the object). */

import { effectsLines } from './render-effects.js';

type Output = Record<string, unknown>;

const point = (value: unknown) => {
  const p = value as { x: number; y: number };
  return `${Math.round(p.x)},${Math.round(p.y)}`;
};
// the effects every input action reports (navigation, dialogs, console errors), one per line
const effectsSuffix = (output: Output) =>
  effectsLines(output)
    .map((line) => `\n${line}`)
    .join('');
const checkLine = (output: Output) =>
  `${output.checked ? 'checked' : 'unchecked'} ${output.element}${output.changed ? '' : ' (already)'}${effectsSuffix(output)}`;

interface DownloadView {
  id: string;
  url: string;
  state: string;
  path: string | null;
  bytes: number;
}

const downloadLine = (item: DownloadView) =>
  `${item.state === 'completed' ? (item.path ?? '') : `[${item.state}] ${item.url}`} (${item.bytes} bytes)`;

export const interactionRenderers: Record<string, (output: Output) => string> = {
  'input.check': checkLine,
  'input.uncheck': checkLine,
  'input.mouse': (o) =>
    `mouse at ${o.x},${o.y}${(o.pressed as string[]).length ? ` holding ${(o.pressed as string[]).join('+')}` : ''}${effectsSuffix(o)}`,
  'input.drag': (o) => `dragged ${point(o.from)} -> ${point(o.to)} (${o.mode})${effectsSuffix(o)}`,
  'input.scrollIntoView': (o) => `${o.element} in view (scroll ${o.scrollX},${o.scrollY})`,
  'files.upload': (o) => `${(o.files as string[]).length} file(s) set on ${o.element} via ${o.via}${effectsSuffix(o)}`,
  'files.download': (o) => downloadLine(o as unknown as DownloadView),
  'files.downloads': (o) => [`folder ${o.dir}`, ...(o.downloads as DownloadView[]).map(downloadLine)].join('\n'),
  'dom.loadHtml': (o) => `${o.title ? `${o.title} — ` : ''}${o.url}`,
  'dom.style': (o) =>
    o.element === null
      ? `undid ${o.undone} style change(s)`
      : `${o.element}: ${o.computed ?? ''} (was ${o.before ?? 'unset'})`,
  'dom.cleanup': (o) => `removed ${o.ads} ad(s), ${o.cookies} cookie banner(s), ${o.sticky} fixed/sticky element(s)`,
  'dom.diff': (o) => String(o.diff) + (o.truncated ? '\n[truncated]' : ''),
  'dom.frame': (o) => (o.main ? 'main frame' : `frame ${o.name || '(no name)'} ${o.url}`),
  'emulation.emulate': (o) => (o.applied as string[]).join('\n'),
  'emulation.header': (o) =>
    (o.headers as string[]).length ? `extra headers: ${(o.headers as string[]).join(', ')}` : 'no extra headers',
  'state.save': (o) =>
    `saved ${o.name} to ${o.path}: ${o.cookies} cookies, ${o.origins} origin(s) of localStorage, ${o.tabs} tab(s)`,
  'state.load': (o) =>
    [
      `loaded ${o.name}: ${o.cookies} cookies, ${o.origins} origin(s) of localStorage, ${(o.tabsOpened as string[]).length} tab(s) opened`,
      ...(o.warnings as string[]).map((w) => `warning: ${w}`),
    ].join('\n'),
  'state.cookieImport': (o) =>
    [
      `imported ${o.imported} cookie(s)`,
      ...(o.skipped as Array<{ index: number; reason: string }>).map((s) => `skipped #${s.index}: ${s.reason}`),
    ].join('\n'),
};
