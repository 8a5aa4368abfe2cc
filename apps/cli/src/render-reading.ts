/** Plain-text renderers for the reading, inspection and visual commands (`--json` prints the object). */

type Output = Record<string, unknown>;
type Declaration = { name: string; value: string; important: boolean };

const str = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const cut = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);
const px = (value: unknown) => (value === null || value === undefined ? '-' : `${value} ms`);

function declarations(list: Declaration[], indent: string): string[] {
  return list.map((item) => `${indent}${item.name}: ${item.value}${item.important ? ' !important' : ''};`);
}

function record(values: Record<string, string | string[]>): string[] {
  return Object.entries(values).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value]).map((item) => `  ${key}: ${item}`),
  );
}

export const readingRenderers: Record<string, (output: Output) => string> = {
  'read.title': (output) => str(output.title),
  'read.links': (output) => {
    const links = output.links as Array<{ text: string; href: string }>;
    const lines = links.map((link) => `${link.text ? `${cut(link.text)}  ` : ''}${link.href}`);
    if (output.truncated) lines.push(`[${links.length} of ${output.total} links; raise --max-items for more]`);
    return lines.join('\n') || '(no links)';
  },
  'read.forms': (output) => {
    type Field = {
      ref: string | null;
      type: string;
      name: string;
      label: string;
      value: string;
      checked: boolean | null;
      disabled: boolean;
      required: boolean;
    };
    const forms = output.forms as Array<{ name: string; action: string | null; method: string; fields: Field[] }>;
    const lines: string[] = [];
    for (const form of forms) {
      lines.push(
        form.action === null
          ? 'outside any form'
          : `form ${form.name ? `"${form.name}" ` : ''}${form.method.toUpperCase()} ${form.action}`,
      );
      for (const field of form.fields) {
        const state = [
          field.checked === true ? 'checked' : '',
          field.disabled ? 'disabled' : '',
          field.required ? 'required' : '',
        ]
          .filter(Boolean)
          .map((s) => ` [${s}]`)
          .join('');
        const value = field.value ? ` = ${JSON.stringify(cut(field.value))}` : '';
        lines.push(
          `  ${field.ref ? `[${field.ref}] ` : ''}${field.type} ${field.name || '(no name)'}${field.label ? ` "${cut(field.label)}"` : ''}${value}${state}`,
        );
      }
    }
    return lines.join('\n') || '(no form fields)';
  },
  'read.accessibility': (output) =>
    str(output.text) + (output.truncated ? '\n[truncated: raise --max-chars or use --depth]' : ''),
  'read.media': (output) => {
    const lines: string[] = [];
    for (const image of output.images as Array<{
      src: string;
      alt: string;
      naturalWidth: number;
      naturalHeight: number;
      visible: boolean;
    }>) {
      lines.push(
        `image ${image.naturalWidth}x${image.naturalHeight}${image.visible ? '' : ' (hidden)'}  ${image.src}${image.alt ? `  "${cut(image.alt)}"` : ''}`,
      );
    }
    for (const video of output.videos as Array<{
      src: string;
      sources: string[];
      videoWidth: number;
      videoHeight: number;
      duration: number | null;
    }>) {
      lines.push(
        `video ${video.videoWidth}x${video.videoHeight}${video.duration === null ? '' : ` ${video.duration.toFixed(1)} s`}  ${video.src || video.sources.join(' ') || '(no source)'}`,
      );
    }
    for (const audio of output.audio as Array<{ src: string; sources: string[]; duration: number | null }>) {
      lines.push(
        `audio${audio.duration === null ? '' : ` ${audio.duration.toFixed(1)} s`}  ${audio.src || audio.sources.join(' ') || '(no source)'}`,
      );
    }
    if (output.truncated) lines.push('[truncated at --max-items]');
    return lines.join('\n') || '(no media)';
  },
  'read.data': (output) => {
    const lines: string[] = [];
    const jsonld = output.jsonld as unknown[];
    if (jsonld.length)
      lines.push('json-ld:', ...jsonld.map((block) => JSON.stringify(block, null, 2).replace(/^/gm, '  ')));
    for (const key of ['og', 'twitter', 'meta'] as const) {
      const values = output[key] as Record<string, string | string[]>;
      if (Object.keys(values).length) lines.push(`${key}:`, ...record(values));
    }
    if (output.canonical) lines.push(`canonical: ${output.canonical}`);
    if (output.lang) lines.push(`lang: ${output.lang}`);
    return lines.join('\n') || '(no structured data)';
  },
  'inspect.css': (output) => str(output.value),
  'inspect.attrs': (output) =>
    Object.entries(output.attributes as Record<string, string>)
      .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
      .join('\n') || `(<${output.tag}> has no attributes)`,
  'inspect.is': (output) => String(output.value),
  'inspect.cookies': (output) => {
    const cookies = output.cookies as Array<{
      name: string;
      value: string | null;
      domain: string;
      path: string;
      expires: string | null;
      httpOnly: boolean;
      secure: boolean;
      sameSite: string | null;
    }>;
    return (
      cookies
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
        .join('\n') || '(no cookies)'
    );
  },
  'inspect.storage': (output) => {
    const section = (name: string, values: Record<string, string>) => [
      `${name}:`,
      ...Object.entries(values).map(([key, value]) => `  ${key} = ${JSON.stringify(value)}`),
      ...(Object.keys(values).length ? [] : ['  (empty)']),
    ];
    return [
      `origin ${output.origin}`,
      ...section('localStorage', output.local as Record<string, string>),
      ...section('sessionStorage', output.session as Record<string, string>),
      ...(output.truncated ? ['[values cut at --max-chars]'] : []),
    ].join('\n');
  },
  'inspect.storageSet': (output) =>
    `${output.area}Storage[${JSON.stringify(output.key)}] set on ${output.origin} (${output.bytes} bytes)`,
  'inspect.perf': (output) => {
    const resources = output.resources as { count: number; transferSize: number };
    return [
      `url           ${output.url} (${output.navigationType})`,
      `TTFB          ${px(output.ttfbMs)}`,
      `FCP           ${px(output.fcpMs)}`,
      `LCP           ${px(output.lcpMs)}`,
      `DOMContentLoaded ${px(output.domContentLoadedMs)}`,
      `load          ${px(output.loadMs)}`,
      `document      ${output.transferSize} bytes transferred, ${output.decodedBodySize} bytes decoded`,
      `resources     ${resources.count} (${resources.transferSize} bytes transferred)`,
    ].join('\n');
  },
  'inspect.element': (output) => {
    const rules = output.rules as Array<{
      selector: string;
      specificity: number[];
      origin: string;
      source: string | null;
      media: string[];
      declarations: Declaration[];
    }>;
    const lines: string[] = [];
    const inline = output.inline as Declaration[];
    if (inline.length) lines.push('style="" {', ...declarations(inline, '  '), '}');
    // most important first, as in DevTools
    for (const rule of [...rules].reverse()) {
      const where = [rule.origin === 'regular' ? '' : rule.origin, rule.source ?? ''].filter(Boolean).join(' ');
      lines.push(
        `${rule.media.length ? `${rule.media.join(' ')} ` : ''}${rule.selector} {  /* (${rule.specificity.join(',')})${where ? ` ${where}` : ''} */`,
        ...declarations(rule.declarations, '  '),
        '}',
      );
    }
    const box = output.box as {
      width: number;
      height: number;
      margin: { width: number; height: number };
      content: { x: number; y: number };
    } | null;
    lines.push(
      box
        ? `box ${box.width}x${box.height} at ${Math.round(box.content.x)},${Math.round(box.content.y)} (with margin ${box.margin.width}x${box.margin.height})`
        : 'box: none (not rendered)',
    );
    return [`${output.element}`, ...lines].join('\n');
  },
  'page.screenshot': (output) =>
    output.path === null
      ? str(output.base64)
      : `${output.path} (${output.format ?? 'png'} ${output.width}x${output.height}, ${output.bytes} bytes)`,
  'visual.pdf': (output) =>
    `${output.path} (${output.bytes} bytes, ${output.format}${output.landscape ? ' landscape' : ''})`,
  'visual.responsive': (output) =>
    (output.shots as Array<{ viewport: string; path: string; bytes: number; height: number }>)
      .map((shot) => `${shot.viewport.padEnd(9)} ${shot.path} (${shot.bytes} bytes)`)
      .join('\n'),
  'visual.archive': (output) => `${output.path} (${output.bytes} bytes)`,
};
