import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_SCREENSHOT_PIXELS, AGENT_SCREENSHOT_QUALITY } from '@argus/protocol';
import { ArgusError } from '@argus/protocol/errors';
import { ContentEnvelope, ENVELOPE_NOTICE } from '@argus/security';
import { afterAll, describe, expect, it } from 'vitest';
import { type CommandCaller, runTool } from './run-tool.js';
import { type ToolSpec, allToolSpecs } from './tool-specs.js';

const spec = (name: string): ToolSpec => allToolSpecs().find((candidate) => candidate.name === name)!;

/** A caller that records calls and answers from a function. */
function fakeCaller(
  answer: (command: string, input: unknown) => unknown,
): CommandCaller & { calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = [];
  return {
    calls,
    async call(command, input) {
      calls.push([command.name, input]);
      return answer(command.name, input);
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'argus-plugin-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runTool', () => {
  it('passes the raw arguments to the manifest command and renders key lines', async () => {
    const caller = fakeCaller(() => ({
      navigated: false,
      url: 'http://x/',
      dialogs: [],
      consoleErrors: [],
      openedTabs: [],
      download: null,
      element: 'button "Go"',
    }));
    const outcome = await runTool(spec('argus_click'), { target: 'e3' }, { caller, envelope: undefined });
    expect(caller.calls).toEqual([['input.click', { target: 'e3' }]]);
    expect(outcome).toMatchObject({ ok: true, structured: { element: 'button "Go"' } });
    expect(outcome.text).toBe('click button "Go"');
  });

  it('rejects bad and unknown arguments locally with invalid_input, without calling the daemon', async () => {
    const caller = fakeCaller(() => ({}));
    const missing = await runTool(spec('argus_click'), {}, { caller, envelope: undefined });
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(missing.text).toMatch(/^error\[invalid_input\]: Invalid arguments for argus_click: target: /);
    const unknown = await runTool(
      spec('argus_click'),
      { target: 'e1', selector: '#x' },
      { caller, envelope: undefined },
    );
    expect(unknown.text).toMatch(
      /unknown argument selector \(expected: target, button, double, diff, tab, timeoutMs\)/,
    );
    const wrongType = await runTool(spec('argus_snapshot'), { depth: 'deep' }, { caller, envelope: undefined });
    expect(wrongType.text).toMatch(/depth: /);
    const badUrl = await runTool(spec('argus_goto'), { url: 'javascript:alert(1)' }, { caller, envelope: undefined });
    expect(badUrl.text).toMatch(/^error\[invalid_input\]: .*scheme javascript: is not allowed/);
    expect(caller.calls).toEqual([]);
  });

  it('maps daemon errors to error[code]: message, and anything else to internal', async () => {
    const stale = await runTool(
      spec('argus_click'),
      { target: 'e9' },
      {
        caller: fakeCaller(() => {
          throw new ArgusError('ref_stale', 'Ref e9 is stale: take a new snapshot.');
        }),
        envelope: undefined,
      },
    );
    expect(stale).toMatchObject({ ok: false, text: 'error[ref_stale]: Ref e9 is stale: take a new snapshot.' });
    const boom = await runTool(
      spec('argus_tabs'),
      {},
      {
        caller: fakeCaller(() => {
          throw new Error('boom');
        }),
        envelope: undefined,
      },
    );
    expect(boom.text).toBe('error[internal]: boom');
  });

  it('wraps page-content fields in the envelope, in the text and in structured content', async () => {
    const envelope = new ContentEnvelope('n0nce');
    const caller = fakeCaller(() => ({
      url: 'http://x/',
      title: 'T',
      text: 'button "Go" e1\nlink "Home" e2',
      refs: 2,
      truncated: false,
    }));
    const outcome = await runTool(spec('argus_snapshot'), {}, { caller, envelope });
    if (!outcome.ok) throw outcome.error;
    expect(outcome.structured.text).toBe(envelope.mark('button "Go" e1\nlink "Home" e2'));
    expect(outcome.structured.title).toBe(envelope.mark('T'));
    // the title and the snapshot in one boundary; this first reply states the notice
    expect(outcome.text).toBe(
      `<<page n0nce>>\n${ENVELOPE_NOTICE}\nT — http://x/\nbutton "Go" e1\nlink "Home" e2\n<</page n0nce>>`,
    );
    const evaluated = await runTool(
      spec('argus_eval'),
      { js: '1' },
      { caller: fakeCaller(() => ({ value: { a: 1 }, type: 'object' })), envelope },
    );
    if (!evaluated.ok) throw evaluated.error;
    expect(evaluated.structured.value).toBe(envelope.mark('{"a":1}'));
    // later replies: only the markers
    expect(evaluated.text).toBe('<<page n0nce>>\n{"a":1}\n<</page n0nce>>');
  });

  it('asks the daemon for the image inline and kept as a file (no read-back), within the agent budget', async () => {
    const caller = fakeCaller(() => ({
      path: '/s/shot.jpg',
      format: 'jpeg',
      width: 1,
      height: 1,
      bytes: 3,
      base64: 'AAAA',
    }));
    const shot = await runTool(spec('argus_screenshot'), {}, { caller, envelope: undefined });
    if (!shot.ok) throw shot.error;
    expect(caller.calls).toEqual([
      [
        'page.screenshot',
        {
          maxPixels: AGENT_SCREENSHOT_PIXELS,
          base64: true,
          keepFile: true,
          format: 'jpeg',
          quality: AGENT_SCREENSHOT_QUALITY,
        },
      ],
    ]);
    expect(shot.image).toEqual({ data: 'AAAA', mimeType: 'image/jpeg', path: '/s/shot.jpg' });
    expect(shot.text).toContain('/s/shot.jpg');
  });

  it('returns screenshots as image content plus the path, never the bytes as text', async () => {
    const path = join(dir, 'shot.png');
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    writeFileSync(path, png);
    const fromFile = await runTool(
      spec('argus_screenshot'),
      {},
      {
        caller: fakeCaller(() => ({ path, format: 'png', width: 10, height: 20, bytes: png.length })),
        envelope: undefined,
      },
    );
    if (!fromFile.ok) throw fromFile.error;
    expect(fromFile.image).toEqual({ data: png.toString('base64'), mimeType: 'image/png', path });
    expect(fromFile.text).toBe(`${path} (png 10x20, 8 bytes)`);
    const inline = await runTool(
      spec('argus_screenshot'),
      { format: 'jpeg' },
      {
        caller: fakeCaller(() => ({ path: null, format: 'jpeg', width: 1, height: 1, bytes: 3, base64: 'AAAA' })),
        envelope: undefined,
      },
    );
    if (!inline.ok) throw inline.error;
    expect(inline.image).toEqual({ data: 'AAAA', mimeType: 'image/jpeg', path: null });
    expect(inline.structured).not.toHaveProperty('base64');
    expect(inline.text).toBe('image (jpeg 1x1, 3 bytes; not written to a file)');
  });
});

describe('error text for agents', () => {
  it('names the tool where the daemon message names a CLI verb that has one', async () => {
    const caller = fakeCaller(() => {
      throw new ArgusError(
        'ref_stale',
        'Ref e1 is stale. Run `argus snapshot` and use the new ref; `argus status` shows the daemon.',
      );
    });
    const outcome = await runTool(spec('argus_click'), { target: 'e1' }, { caller, envelope: undefined });
    expect(outcome.text).toBe(
      'error[ref_stale]: Ref e1 is stale. Run `argus_snapshot` and use the new ref; `argus status` shows the daemon.',
    );
  });

  it('says a hidden tab is tab_hidden and names the tool call that brings it forward', async () => {
    const caller = fakeCaller(() => {
      throw new ArgusError(
        'tab_hidden',
        'Tab 3F2A9B1C is a background tab of its window (another tab is in front of it). Bring it to the front with `argus tab 3F2A9B1C`, then take the screenshot again.',
        { details: { tab: '3F2A9B1C0D' } },
      );
    });
    const outcome = await runTool(spec('argus_screenshot'), {}, { caller, envelope: undefined });
    expect(outcome.text).toBe(
      'error[tab_hidden]: Tab 3F2A9B1C is a background tab of its window (another tab is in front of it). Bring it to the front with `argus_tab {"id":"3F2A9B1C"}`, then take the screenshot again.',
    );
  });
});

describe('hints in the agent words', () => {
  it('turns every `argus …` command of a message into the tool call that does the same', async () => {
    const { withToolNames } = await import('./errors.js');
    expect(withToolNames('Element is covered. Run `argus snapshot -i` and pick another ref.')).toBe(
      'Element is covered. Run `argus_snapshot {"interactive":true}` and pick another ref.',
    );
    expect(withToolNames('Continue with `argus snapshot --cursor c1`; `argus goto <url>` first.')).toBe(
      'Continue with `argus_snapshot {"cursor":"c1"}`; `argus_goto` first.',
    );
    expect(withToolNames('Answer it with `argus dialog accept`.')).toBe('Answer it with `argus_dialog_accept`.');
    // operator commands have no tool: they stay for the user to run
    expect(withToolNames('Ask the user to run `argus share`.')).toBe('Ask the user to run `argus share`.');
  });

  it('says how to get a tool the agent lacks instead of offering it (core, --tools, OpenCode)', async () => {
    const { withToolNames } = await import('./errors.js');
    const { selectionReach } = await import('./tool-reach.js');
    const core = selectionReach(['argus_snapshot', 'argus_goto'], { profile: 'core' });
    expect(withToolNames('Run `argus snapshot -i`, then `argus frame main`.', core)).toBe(
      'Run `argus_snapshot {"interactive":true}`, then `argus frame main` (a CLI command; the tool argus_frame is ' +
        "not in this server's core profile: starting argus-mcp with `--tools core,frame` or `--profile full` adds it).",
    );
    // a tool the daemon names itself is said once to be missing, wherever it appears
    expect(
      withToolNames('Hand the tab over: `argus handoff --wait` (MCP: argus_handoff), then argus_handoff again.', core),
    ).toBe(
      'Hand the tab over: `argus handoff --wait` (a CLI command; the tool argus_handoff is not in ' +
        "this server's core profile: starting argus-mcp with `--tools core,handoff` or `--profile full` adds it) " +
        '(MCP: argus_handoff), then argus_handoff again.',
    );
    expect(withToolNames('Resume it with argus_resume.', core)).toBe(
      "Resume it with argus_resume (not in this server's core profile: starting argus-mcp with " +
        '`--tools core,resume` or `--profile full` adds it).',
    );
    const listed = selectionReach(['argus_click'], { tools: ['click', 'fill'] });
    expect(withToolNames('Run `argus tabs`.', listed)).toBe(
      "Run `argus tabs` (a CLI command; the tool argus_tabs is not in this server's `--tools` list: starting " +
        'argus-mcp with `--tools click,fill,tabs` or `--profile full` adds it).',
    );
    const openCode = selectionReach([], { profile: 'core' }, 'opencode');
    expect(withToolNames('Run `argus tabs`.', openCode)).toBe(
      "Run `argus tabs` (a CLI command; the tool argus_tabs is not in this plugin's core profile: its " +
        'opencode.json options `"tools": ["core","tabs"]` or `"profile": "full"` adds it).',
    );
  });

  it('names a CLI flag outside a command as the tool argument it is', async () => {
    const { withToolNames } = await import('./errors.js');
    expect(withToolNames('Retry with a longer --timeout-ms; pass --overwrite (--max-chars too).')).toBe(
      'Retry with a longer timeoutMs; pass overwrite (maxChars too).',
    );
    // inside a command that stays a CLI command, the flag stays
    expect(withToolNames('Ask the user to run `argus share --ttl 1h`.')).toBe(
      'Ask the user to run `argus share --ttl 1h`.',
    );
  });
});
