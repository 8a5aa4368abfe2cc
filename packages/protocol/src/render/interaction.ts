import { actionText, frameClearedLines } from './effects.js';
import { titled } from './format.js';
import type { OutputOf, RenderContext, RenderersOf } from './types.js';

const point = (p: { x: number; y: number }) => `${Math.round(p.x)},${Math.round(p.y)}`;

const check = (name: 'input.check' | 'input.uncheck') => (output: OutputOf<'input.check'>, context: RenderContext) =>
  actionText(
    name,
    `${output.checked ? 'checked' : 'unchecked'} ${output.element}${output.changed ? '' : ' (already)'}`,
    output,
    context,
  );

/** The text `type` typed, said by its length (it is the caller's own text, shown back it only costs tokens). */
const typed = (input: Readonly<Record<string, unknown>>, output: { typedInto: string | null; editable: boolean }) => {
  const head = typeof input.text === 'string' ? `typed ${[...input.text].length} character(s)` : 'typed';
  if (output.typedInto === null)
    return `${head}, but nothing had focus: the page got the keys (give a target, or click the field first)`;
  return output.editable
    ? `${head} into ${output.typedInto}`
    : `${head} into ${output.typedInto}, which does not take text (give the field as target)`;
};

/** A key press, and where it went: the focused element, or the document body with nothing focused. */
const pressed = (input: Readonly<Record<string, unknown>>, output: { element?: string | null | undefined }) => {
  const head = `pressed ${typeof input.key === 'string' ? input.key : 'key'}`;
  if (output.element === undefined) return head;
  return output.element === null ? `${head} on the document body (nothing had focus)` : `${head} on ${output.element}`;
};

/**
 * Which click was sent, from the input it ran with: a right, middle or double click does something
 * else on the page (a context menu, a new tab, a selection), so the reply says it was one.
 */
const clickKind = (input: Readonly<Record<string, unknown>>) => {
  const button = input.button === 'right' || input.button === 'middle' ? input.button : undefined;
  const double = input.double === true;
  if (button) return double ? `${button} double-click` : `${button}-click`;
  return double ? 'double-click' : 'click';
};

/**
 * A click; one whose element the page took out as it was pressed is done (the page acted on the
 * press), said with where the release went, since no click event reached the element.
 */
const clicked = (input: Readonly<Record<string, unknown>>, output: OutputOf<'input.click'>) => {
  const line = `${clickKind(input)} ${output.element}`;
  const gone = output.goneOnPress;
  if (!gone) return line;
  return gone.replaced
    ? `${line}\nthe page replaced it with a like element as it was pressed (a re-render), and the release landed on the new one, so no click event reached either. Not pressed again: if the page did not do what the click was for, click again (the target finds the new element)`
    : `${line}\nthe page removed it as it was pressed (it acted on the press), and the release landed on ${gone.releasedOn}, so no click event reached it. Not pressed again: look at the page before clicking anything again`;
};

/** A fill's value; a long one cut, with its length and whether the field holds exactly the text given. */
const filled = (output: OutputOf<'input.fill'>) => {
  const line = `fill ${output.element} = ${JSON.stringify(output.value)}`;
  if (!output.truncated) return line;
  const holds = output.matches ? 'the field holds exactly the text given' : 'differs from the text given';
  return `${line}… (${output.length ?? '?'} characters, the first ${output.value.length} shown; ${holds})`;
};

export const inputRenderers: RenderersOf<'input'> = {
  'input.click': (output, context) => actionText('input.click', clicked(context.input, output), output, context),
  'input.hover': (output, context) => actionText('input.hover', `hover ${output.element}`, output, context),
  'input.fill': (output, context) => actionText('input.fill', filled(output), output, context),
  'input.select': (output, context) =>
    actionText(
      'input.select',
      `select ${output.element} -> ${output.selected.length ? output.selected.map((option) => JSON.stringify(option.label)).join(', ') : '(none)'}`,
      output,
      context,
    ),
  'input.type': (output, context) => actionText('input.type', typed(context.input, output), output, context),
  'input.press': (output, context) => actionText('input.press', pressed(context.input, output), output, context),
  'input.check': check('input.check'),
  'input.uncheck': check('input.uncheck'),
  'input.mouse': (output, context) =>
    actionText(
      'input.mouse',
      `mouse at ${output.x},${output.y}${output.pressed.length ? ` holding ${output.pressed.join('+')}` : ''}`,
      output,
      context,
    ),
  'input.drag': (output, context) =>
    actionText('input.drag', `dragged ${point(output.from)} -> ${point(output.to)} (${output.mode})`, output, context),
  'input.scrollIntoView': (output) => `${output.element} in view (scroll ${output.scrollX},${output.scrollY})`,
};

type Download = OutputOf<'files.download'>;
const downloadLine = (item: Download) =>
  `${item.state === 'completed' ? (item.path ?? '') : `[${item.state}] ${item.url}`} (${item.bytes} bytes)`;

export const filesRenderers: RenderersOf<'files'> = {
  'files.upload': (output, context) =>
    actionText(
      'files.upload',
      `${output.files.length} file(s) set on ${output.element} via ${output.via}`,
      output,
      context,
    ),
  'files.download': downloadLine,
  'files.downloads': (output) =>
    [
      `folder ${output.dir}`,
      ...(output.downloads.length ? output.downloads.map(downloadLine) : ['(no downloads)']),
    ].join('\n'),
};

export const domRenderers: RenderersOf<'dom'> = {
  'dom.loadHtml': (output) => [titled(output.title, output.url), ...frameClearedLines(output.frameCleared)].join('\n'),
  'dom.style': (output) =>
    output.element === null
      ? `undid ${output.undone} style change(s)`
      : `${output.element}: ${output.computed ?? ''} (was ${output.before ?? 'unset'})`,
  'dom.cleanup': (output) =>
    `removed ${output.ads} ad(s), ${output.cookies} cookie banner(s), ${output.sticky} fixed/sticky element(s)`,
  'dom.diff': (output) => (output.identical ? 'identical' : output.diff + (output.truncated ? '\n[truncated]' : '')),
  'dom.frame': (output) => (output.main ? 'main frame' : `frame ${output.name || '(no name)'} ${output.url}`),
};

export const emulationRenderers: RenderersOf<'emulation'> = {
  'emulation.viewport': (output) => `viewport ${output.width}x${output.height} at scale ${output.scale}`,
  'emulation.useragent': (output) => `user agent ${output.userAgent}`,
  'emulation.emulate': (output) => output.applied.join('\n') || 'nothing changed',
  'emulation.header': (output) =>
    output.headers.length ? `extra headers: ${output.headers.join(', ')}` : 'no extra headers',
};

export const stateRenderers: RenderersOf<'state'> = {
  'state.cookieSet': (output) => `cookie ${output.name} set for ${output.domain}${output.path}`,
  'state.cookieImport': (output) =>
    [
      `imported ${output.imported} cookie(s)`,
      ...output.skipped.map((skip) => `skipped #${skip.index}: ${skip.reason}`),
    ].join('\n'),
  'state.cookieImportBrowser': (output) =>
    [
      `imported ${output.imported} cookie(s) from ${output.source}`,
      ...output.domains.map((entry) => `  ${entry.domain}: ${entry.cookies}`),
      ...output.skipped.map((skip) => `skipped ${skip.count}: ${skip.reason}`),
      ...output.notes.map((note) => `note: ${note}`),
    ].join('\n'),
  'state.save': (output) =>
    `saved ${output.name} to ${output.path}: ${output.cookies} cookies, ${output.origins} origin(s) of localStorage, ${output.tabs} tab(s)`,
  'state.load': (output) =>
    [
      `loaded ${output.name}: ${output.cookies} cookies, ${output.origins} origin(s) of localStorage, ${output.tabsOpened.length} tab(s) opened`,
      ...output.warnings.map((warning) => `warning: ${warning}`),
    ].join('\n'),
};
