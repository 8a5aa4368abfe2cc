import { dialogLines, dialogsFirst } from './effects.js';
import { cut, ms, str } from './format.js';
import type { OutputOf, RenderContext, RenderersOf } from './types.js';

type Declaration = OutputOf<'inspect.element'>['inline'][number];

const declarations = (list: readonly Declaration[], indent: string) =>
  list.map((item) => `${indent}${item.name}: ${item.value}${item.important ? ' !important' : ''};`);

function record(values: Record<string, string | string[]>): string[] {
  return Object.entries(values).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value]).map((item) => `  ${key}: ${item}`),
  );
}

type Field = OutputOf<'read.forms'>['forms'][number]['fields'][number];

/** How many of a select's options its line lists. */
const SELECT_OPTIONS_SHOWN = 20;

function fieldLine(field: Field): string {
  const state = [
    field.checked === true ? 'checked' : '',
    field.disabled ? 'disabled' : '',
    field.required ? 'required' : '',
  ]
    .filter(Boolean)
    .map((s) => ` [${s}]`)
    .join('');
  // a select says what is chosen by label (every chosen one of a select-multiple) and what it offers
  const chosen = field.options?.filter((option) => option.selected).map((option) => JSON.stringify(cut(option.label)));
  const value = chosen
    ? chosen.length
      ? ` = ${chosen.join(', ')}`
      : ''
    : field.value
      ? ` = ${JSON.stringify(cut(field.value))}`
      : '';
  const offered = field.options?.length
    ? ` options: ${field.options
        .slice(0, SELECT_OPTIONS_SHOWN)
        .map((option) => cut(option.label))
        .join(
          ' | ',
        )}${field.options.length > SELECT_OPTIONS_SHOWN ? ` | … ${field.options.length - SELECT_OPTIONS_SHOWN} more (--json has all)` : ''}`
    : '';
  return `  ${field.ref ? `[${field.ref}] ` : ''}${field.type} ${field.name || '(no name)'}${field.label ? ` "${cut(field.label)}"` : ''}${value}${state}${offered}`;
}

function mediaLines(output: OutputOf<'read.media'>): string[] {
  const lines: string[] = [];
  for (const image of output.images)
    lines.push(
      `image ${image.naturalWidth}x${image.naturalHeight}${image.visible ? '' : ' (hidden)'}  ${image.src}${image.alt ? `  "${cut(image.alt)}"` : ''}`,
    );
  for (const video of output.videos)
    lines.push(
      `video ${video.videoWidth}x${video.videoHeight}${video.duration === null ? '' : ` ${video.duration.toFixed(1)} s`}  ${video.src || video.sources.join(' ') || '(no source)'}`,
    );
  for (const audio of output.audio)
    lines.push(
      `audio${audio.duration === null ? '' : ` ${audio.duration.toFixed(1)} s`}  ${audio.src || audio.sources.join(' ') || '(no source)'}`,
    );
  if (output.truncated) lines.push('[truncated at --max-items]');
  return lines;
}

function dataLines(output: OutputOf<'read.data'>): string[] {
  const lines: string[] = [];
  if (output.jsonld.length)
    lines.push('json-ld:', ...output.jsonld.map((block) => JSON.stringify(block, null, 2).replace(/^/gm, '  ')));
  for (const key of ['og', 'twitter', 'meta'] as const) {
    const values = output[key];
    if (Object.keys(values).length) lines.push(`${key}:`, ...record(values));
  }
  if (output.canonical) lines.push(`canonical: ${output.canonical}`);
  if (output.lang) lines.push(`lang: ${output.lang}`);
  return lines;
}

/** A page's text, and how to read more when it was cut. */
function textBody(output: OutputOf<'read.text'>, context: RenderContext): string {
  if (!output.truncated) return output.text;
  const cut = Number(context.input.maxChars) || 0;
  const more = context.hint('read.text', { ...context.input, maxChars: Math.min(cut * 4, 10_000_000) });
  return `${output.text}\n[truncated at ${cut} characters: ${more} reads more; a target reads one part]`;
}

export const readRenderers: RenderersOf<'read'> = {
  'read.title': (output) => [output.title || '(untitled)', ...dialogLines(output.dialogs)].join('\n'),
  // the lists and documents put the dialogs since the previous reply first (dialogsFirst)
  'read.text': (output, context) => dialogsFirst(output, textBody(output, context)),
  'read.html': (output) => dialogsFirst(output, output.html + (output.truncated ? '\n[truncated]' : '')),
  'read.links': (output) => {
    const lines = output.links.map((link) => `${link.text ? `${cut(link.text)}  ` : ''}${link.href}`);
    if (output.truncated) lines.push(`[${output.links.length} of ${output.total} links; raise --max-items for more]`);
    return dialogsFirst(output, lines.join('\n') || '(no links)');
  },
  'read.forms': (output) =>
    dialogsFirst(
      output,
      output.forms
        .flatMap((form) => [
          form.action === null
            ? 'outside any form'
            : `form ${form.name ? `"${form.name}" ` : ''}${form.method.toUpperCase()} ${form.action}`,
          ...form.fields.map(fieldLine),
        ])
        .join('\n') || '(no form fields)',
    ),
  'read.accessibility': (output) =>
    dialogsFirst(output, output.text + (output.truncated ? '\n[truncated: raise --max-chars or use --depth]' : '')),
  'read.media': (output) => dialogsFirst(output, mediaLines(output).join('\n') || '(no media)'),
  'read.data': (output) => dialogsFirst(output, dataLines(output).join('\n') || '(no structured data)'),
};

function elementLines(output: OutputOf<'inspect.element'>): string[] {
  const lines: string[] = [];
  if (output.inline.length) lines.push('style="" {', ...declarations(output.inline, '  '), '}');
  // most important first, as in DevTools
  for (const rule of [...output.rules].reverse()) {
    const where = [rule.origin === 'regular' ? '' : rule.origin, rule.source ?? ''].filter(Boolean).join(' ');
    lines.push(
      `${rule.media.length ? `${rule.media.join(' ')} ` : ''}${rule.selector} {  /* (${rule.specificity.join(',')})${where ? ` ${where}` : ''} */`,
      ...declarations(rule.declarations, '  '),
      '}',
    );
  }
  const box = output.box;
  lines.push(
    box
      ? `box ${box.width}x${box.height} at ${Math.round(box.content.x)},${Math.round(box.content.y)} (with margin ${box.margin.width}x${box.margin.height})`
      : 'box: none (not rendered)',
  );
  return [output.element, ...lines];
}

export const inspectRenderers: RenderersOf<'inspect'> = {
  // one-line answers (css, is) put the dialogs since the previous reply after their line, as title
  // and eval; the lists and documents (attrs, cookies, storage, perf) before them (dialogsFirst)
  'inspect.css': (output) => [str(output.value), ...dialogLines(output.dialogs)].join('\n'),
  'inspect.attrs': (output) =>
    dialogsFirst(
      output,
      Object.entries(output.attributes)
        .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
        .join('\n') || `(<${output.tag}> has no attributes)`,
    ),
  'inspect.is': (output) => [String(output.value), ...dialogLines(output.dialogs)].join('\n'),
  'inspect.cookies': (output) =>
    dialogsFirst(
      output,
      output.cookies
        .map((cookie) => {
          const flags = [
            cookie.httpOnly ? 'httpOnly' : '',
            cookie.secure ? 'secure' : '',
            cookie.sameSite ? `SameSite=${cookie.sameSite}` : '',
          ]
            .filter(Boolean)
            .join(' ');
          return `${cookie.name}=${cookie.value ?? '(hidden: needs admin scope)'}  ${cookie.domain}${cookie.path}  ${cookie.expires ?? 'session'}${flags ? `  ${flags}` : ''}`;
        })
        .join('\n') || '(no cookies)',
    ),
  'inspect.storage': (output) => {
    const section = (name: string, values: Record<string, string>) => [
      `${name}:`,
      ...Object.entries(values).map(([key, value]) => `  ${key} = ${JSON.stringify(value)}`),
      ...(Object.keys(values).length ? [] : ['  (empty)']),
    ];
    return dialogsFirst(
      output,
      [
        `origin ${output.origin}`,
        ...section('localStorage', output.local),
        ...section('sessionStorage', output.session),
        ...(output.truncated ? ['[values cut at --max-chars]'] : []),
      ].join('\n'),
    );
  },
  'inspect.storageSet': (output) =>
    `${output.area}Storage[${JSON.stringify(output.key)}] set on ${output.origin} (${output.bytes} bytes)`,
  'inspect.perf': (output) =>
    dialogsFirst(
      output,
      // one column of values: the labels padded to the longest (DOMContentLoaded)
      aligned([
        ['url', `${output.url} (${output.navigationType})`],
        ['TTFB', ms(output.ttfbMs)],
        ['FCP', ms(output.fcpMs)],
        ['LCP', ms(output.lcpMs)],
        ['DOMContentLoaded', ms(output.domContentLoadedMs)],
        ['load', ms(output.loadMs)],
        ['document', `${output.transferSize} bytes transferred, ${output.decodedBodySize} bytes decoded`],
        ['resources', `${output.resources.count} (${output.resources.transferSize} bytes transferred)`],
      ]),
    ),
  'inspect.element': (output) => dialogsFirst(output, elementLines(output).join('\n')),
};

export const visualRenderers: RenderersOf<'visual'> = {
  'visual.pdf': (output) =>
    `${output.path} (${output.bytes} bytes, ${output.format}${output.landscape ? ' landscape' : ''})`,
  'visual.responsive': (output) =>
    output.shots.map((shot) => `${shot.viewport.padEnd(9)} ${shot.path} (${shot.bytes} bytes)`).join('\n'),
  'visual.archive': (output) => `${output.path} (${output.bytes} bytes)`,
};

/** `label  value` lines with every value in one column. */
function aligned(rows: ReadonlyArray<readonly [label: string, value: string]>): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${label.padEnd(width)}${value}`).join('\n');
}
