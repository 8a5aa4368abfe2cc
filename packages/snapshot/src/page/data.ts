import { manifest } from '@argus/protocol';
import { pageFunction } from './page-function.js';

type Tags = Record<string, string | string[]>;

/**
 * `read.data`: JSON-LD blocks, OpenGraph, Twitter card and other <meta> tags, canonical URL and
 * language of the document the function runs in.
 */
export const DATA = pageFunction(
  'data',
  // the page's answer never has dialogs: the daemon adds the tab's own (a page cannot claim one)
  manifest.read.data.output.omit({ dialogs: true }),
  function (this: unknown, want: { jsonld: boolean; og: boolean; meta: boolean; twitter: boolean }) {
    const put = (record: Tags, key: string, value: string) => {
      const before = Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
      if (before === undefined) record[key] = value;
      else if (Array.isArray(before)) before.push(value);
      else record[key] = [before, value];
    };
    const out = {
      jsonld: [] as unknown[],
      og: {} as Tags,
      twitter: {} as Tags,
      meta: {} as Tags,
      canonical: null as string | null,
      lang: null as string | null,
    };
    if (want.jsonld) {
      for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json" i]'))) {
        const raw = script.textContent || '';
        // XHTML habit some sites keep (the Guardian): the JSON wrapped in CDATA markers, themselves
        // often inside `//` or `/* */` comments. Only a wrapper around the whole block is taken off.
        const json = raw
          .replace(/^\s*(?:\/\/[ \t]*|\/\*\s*)?<!\[CDATA\[(?:\s*\*\/)?/, '')
          .replace(/(?:\/\/[ \t]*|\/\*\s*)?\]\]>(?:\s*\*\/)?\s*$/, '');
        try {
          out.jsonld.push(JSON.parse(json));
        } catch (error) {
          out.jsonld.push({ error: String((error as Error | null)?.message || error), raw: raw.slice(0, 2000) });
        }
      }
    }
    const OG = /^(og|article|book|profile|product|music|video|fb|business|place):/i;
    for (const meta of Array.from(document.querySelectorAll('meta'))) {
      const property = meta.getAttribute('property');
      const key =
        property ||
        meta.getAttribute('name') ||
        meta.getAttribute('http-equiv') ||
        meta.getAttribute('itemprop') ||
        (meta.hasAttribute('charset') ? 'charset' : '');
      if (!key) continue;
      const value =
        meta.hasAttribute('charset') && !meta.hasAttribute('content')
          ? meta.getAttribute('charset') || ''
          : meta.getAttribute('content') || '';
      if (/^twitter:/i.test(key)) {
        if (want.twitter) put(out.twitter, key.toLowerCase(), value);
      } else if (OG.test(key)) {
        if (want.og) put(out.og, key.toLowerCase(), value);
      } else if (want.meta) put(out.meta, key.toLowerCase(), value);
    }
    if (want.meta) {
      const canonical = document.querySelector<HTMLLinkElement>('link[rel~="canonical" i][href]');
      out.canonical = canonical ? canonical.href : null;
      out.lang = document.documentElement ? document.documentElement.getAttribute('lang') : null;
    }
    return out;
  },
);
