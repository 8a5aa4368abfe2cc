import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TabId } from '../common.js';

/** Device, media, network and header emulation for one tab. */
export const emulationCommands = {
  viewport: defineCommand({
    name: 'emulation.viewport',
    cli: {
      verb: 'viewport',
      positionals: ['size'],
      examples: ['argus viewport 1280x720', 'argus viewport 390x844 --scale 3'],
    },
    tool: 'argus_viewport',
    kind: 'mutation',
    scope: 'write',
    summary: 'Set the viewport size (CSS pixels) and device scale factor of a tab.',
    input: () =>
      z.object({
        size: z
          .string()
          .regex(/^\d{1,5}x\d{1,5}$/, 'a size WIDTHxHEIGHT such as 1280x720')
          .describe('WIDTHxHEIGHT in CSS pixels, e.g. 1280x720'),
        scale: z.number().min(0.25).max(5).default(1).describe('Device scale factor (device pixel ratio)'),
        tab: TabId.optional(),
      }),
    output: () => z.object({ width: z.number(), height: z.number(), scale: z.number() }),
  }),
  emulate: defineCommand({
    name: 'emulation.emulate',
    cli: {
      verb: 'emulate',
      positionals: ['device...'],
      examples: [
        'argus emulate iPhone 15',
        'argus emulate --media dark',
        'argus emulate --geo 48.8584,2.2945',
        'argus emulate --offline',
        'argus emulate --cpu 4',
        'argus emulate --reset',
      ],
    },
    tool: 'argus_emulate',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Emulate a device (size, DPR, touch, user agent), a color scheme, a location, being offline or a slow CPU; --reset clears all of it.',
    input: () =>
      z.object({
        device: z.string().min(1).max(100).optional().describe('Device name: iPhone 15, Pixel 8, iPad, Desktop 1080p'),
        media: z.enum(['dark', 'light', 'no-preference']).optional().describe('prefers-color-scheme to emulate'),
        geo: z
          .string()
          .regex(/^\s*-?\d{1,3}(\.\d+)?\s*,\s*-?\d{1,3}(\.\d+)?\s*$/, 'latitude,longitude such as 48.8584,2.2945')
          .optional()
          .describe('Geolocation as "latitude,longitude"; also grants the geolocation permission'),
        offline: z.boolean().optional().describe('Cut the tab off the network (--no-offline restores it)'),
        cpu: z.number().min(1).max(20).optional().describe('CPU slowdown factor (1 = none)'),
        reset: z.boolean().default(false).describe('Clear every emulation of the tab'),
        tab: TabId.optional(),
      }),
    output: () => z.object({ applied: z.array(z.string()).describe('What was applied, one line each') }),
  }),
  useragent: defineCommand({
    name: 'emulation.useragent',
    cli: {
      verb: 'useragent',
      positionals: ['userAgent...'],
      examples: ['argus useragent "Mozilla/5.0 (compatible; ArgusBot/1.0)"'],
    },
    tool: 'argus_useragent',
    kind: 'mutation',
    scope: 'write',
    summary: 'Override the user agent of a tab (navigator.userAgent and the User-Agent header).',
    input: () =>
      z.object({
        userAgent: z
          .string()
          .min(1)
          .max(1000)
          .regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'one line of Latin-1 characters (an HTTP header cannot carry others)')
          .describe('The user agent string'),
        tab: TabId.optional(),
      }),
    output: () => z.object({ userAgent: z.string() }),
  }),
  header: defineCommand({
    name: 'emulation.header',
    cli: { verb: 'header', positionals: ['header...'], examples: ['argus header "X-Test: 1"', 'argus header --clear'] },
    tool: 'argus_header',
    kind: 'mutation',
    scope: 'write',
    summary: 'Add an extra HTTP header to every request of a tab (accumulates; --clear removes them all).',
    input: () =>
      z.object({
        header: z.string().min(3).max(8192).optional().describe('"Name: value"'),
        clear: z.boolean().default(false).describe('Remove every extra header of the tab'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        headers: z.array(z.string()).describe('Names of the extra headers now sent (values are not echoed)'),
      }),
  }),
};
