import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TabId, Target, UnreportedDialogs } from '../common.js';

const MaxItems = z.number().int().min(1).max(100_000).default(1_000).describe('Return at most this many items');
const Within = Target.optional().describe('Only inside this element (ref or CSS selector); default the whole page');

const FormField = z.object({
  ref: z.string().nullable().describe('Ref to act on the field (null when it is not interactable, e.g. hidden)'),
  tag: z.string().describe('input, select, textarea or button'),
  type: z.string().describe('Input type (text, email, checkbox, ...), or select-one/select-multiple/textarea/submit'),
  name: z.string().describe('The name attribute (empty when missing)'),
  id: z.string().describe('The id attribute (empty when missing)'),
  label: z.string().describe('Accessible label: <label>, aria-label, aria-labelledby, placeholder or title'),
  value: z.string().describe('Current value; password values are masked'),
  checked: z.boolean().nullable().describe('For checkboxes and radios; null otherwise'),
  required: z.boolean(),
  disabled: z.boolean(),
  options: z
    .array(z.object({ value: z.string(), label: z.string(), selected: z.boolean() }))
    .nullable()
    .describe('Options of a <select>; null otherwise'),
});

const MediaSize = {
  width: z.number().describe('Rendered width in CSS pixels'),
  height: z.number().describe('Rendered height in CSS pixels'),
  visible: z.boolean().describe('Whether it has a rendered box'),
};

export const readCommands = {
  links: defineCommand({
    name: 'read.links',
    cli: {
      verb: 'links',
      positionals: ['within'],
      examples: ['argus links', 'argus links nav', 'argus links --filter /docs/'],
    },
    tool: 'argus_links',
    kind: 'query',
    scope: 'read',
    summary: 'Links of the page (or of one element): text and absolute href.',
    input: () =>
      z.object({
        within: Within,
        filter: z
          .string()
          .min(1)
          .max(2000)
          .optional()
          .describe('Only links whose href or text contains this (case-insensitive)'),
        maxItems: MaxItems,
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        links: z.array(z.object({ text: z.string(), href: z.string().describe('Absolute URL') })),
        total: z.number().describe('Links found before --max-items was applied'),
        truncated: z.boolean(),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['links'],
  }),
  forms: defineCommand({
    name: 'read.forms',
    cli: { verb: 'forms', positionals: ['within'], examples: ['argus forms', 'argus forms "#signup"'] },
    tool: 'argus_forms',
    kind: 'mutation',
    scope: 'read',
    summary: 'Forms and their fields (name, type, value, label, ref), plus fields outside any form.',
    input: () =>
      z.object({
        within: Within,
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        forms: z.array(
          z.object({
            name: z.string().describe('name or id of the form; empty for fields outside any form'),
            action: z.string().nullable().describe('Absolute action URL; null for fields outside any form'),
            method: z.string().describe('get or post (empty outside a form)'),
            fields: z.array(FormField),
          }),
        ),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['forms'],
  }),
  accessibility: defineCommand({
    name: 'read.accessibility',
    cli: { verb: 'accessibility', examples: ['argus accessibility', 'argus accessibility --all --max-chars 50000'] },
    tool: 'argus_accessibility',
    kind: 'query',
    scope: 'read',
    summary: "The browser's full accessibility tree (Accessibility.getFullAXTree) as compact indented text.",
    input: () =>
      z.object({
        all: z.boolean().default(false).describe('Include ignored and unnamed generic nodes'),
        depth: z.number().int().min(1).max(500).optional().describe('Maximum tree depth to print'),
        maxChars: z
          .number()
          .int()
          .min(1)
          .max(10_000_000)
          .default(200_000)
          .describe('Truncate the text after this many characters'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        text: z.string().describe('One node a line: role "name" plus properties'),
        nodes: z.number().describe('Nodes printed'),
        truncated: z.boolean(),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['text'],
  }),
  media: defineCommand({
    name: 'read.media',
    cli: { verb: 'media', examples: ['argus media', 'argus media --images', 'argus media --videos --audio'] },
    tool: 'argus_media',
    kind: 'query',
    scope: 'read',
    summary: 'Images, videos and audio of the page: absolute URLs and dimensions (none of the flags = all three).',
    input: () =>
      z.object({
        images: z.boolean().default(false).describe('Images (<img>, <picture>, <input type=image>)'),
        videos: z.boolean().default(false).describe('<video> elements'),
        audio: z.boolean().default(false).describe('<audio> elements'),
        maxItems: MaxItems,
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        images: z.array(
          z.object({
            src: z.string().describe('Absolute URL actually shown (currentSrc)'),
            alt: z.string(),
            naturalWidth: z.number().describe('Intrinsic width in pixels (0 when not loaded)'),
            naturalHeight: z.number().describe('Intrinsic height in pixels (0 when not loaded)'),
            ...MediaSize,
          }),
        ),
        videos: z.array(
          z.object({
            src: z.string().describe('Absolute URL playing or to play (currentSrc, else src or first <source>)'),
            sources: z.array(z.string()).describe('Every candidate URL (src and <source> elements)'),
            poster: z.string(),
            videoWidth: z.number().describe('Intrinsic width (0 before metadata loads)'),
            videoHeight: z.number().describe('Intrinsic height (0 before metadata loads)'),
            duration: z.number().nullable().describe('Seconds; null when unknown'),
            ...MediaSize,
          }),
        ),
        audio: z.array(
          z.object({
            src: z.string(),
            sources: z.array(z.string()),
            duration: z.number().nullable().describe('Seconds; null when unknown'),
          }),
        ),
        truncated: z.boolean().describe('Some list was cut at --max-items'),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['images', 'videos', 'audio'],
  }),
  data: defineCommand({
    name: 'read.data',
    cli: { verb: 'data', examples: ['argus data', 'argus data --jsonld', 'argus data --og --twitter'] },
    tool: 'argus_data',
    kind: 'query',
    scope: 'read',
    summary: 'Structured data of the page: JSON-LD, OpenGraph, Twitter card and <meta> tags (none of the flags = all).',
    input: () =>
      z.object({
        jsonld: z.boolean().default(false).describe('JSON-LD blocks (<script type="application/ld+json">)'),
        og: z.boolean().default(false).describe('OpenGraph properties (og:*, plus article:/product: etc.)'),
        meta: z
          .boolean()
          .default(false)
          .describe('Other <meta name|http-equiv|itemprop> tags, canonical URL and language'),
        twitter: z.boolean().default(false).describe('Twitter card tags (twitter:*)'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        jsonld: z.array(z.unknown()).describe('Parsed JSON-LD blocks; a block that does not parse is {"error", "raw"}'),
        og: z
          .record(z.string(), z.union([z.string(), z.array(z.string())]))
          .describe('OpenGraph properties; repeated ones become arrays'),
        twitter: z.record(z.string(), z.union([z.string(), z.array(z.string())])).describe('Twitter card properties'),
        meta: z.record(z.string(), z.union([z.string(), z.array(z.string())])).describe('Other meta tags by name'),
        canonical: z.string().nullable().describe('Absolute canonical URL (<link rel=canonical>)'),
        lang: z.string().nullable().describe('The <html lang> attribute'),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['jsonld', 'og', 'twitter', 'meta'],
  }),
  title: defineCommand({
    name: 'read.title',
    cli: { verb: 'title' },
    tool: false,
    kind: 'query',
    scope: 'read',
    summary: 'The document title of a tab, or of the frame chosen with `argus frame`.',
    input: () => z.object({ tab: TabId.optional() }),
    output: () => z.object({ title: z.string(), dialogs: UnreportedDialogs }),
    pageContent: ['title'],
  }),
};
