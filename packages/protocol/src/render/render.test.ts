import { describe, expect, it } from 'vitest';
import { listCommands } from '../manifest.js';
import { type RenderContext, hasRenderer, renderCommand, renderers } from './index.js';

const cli = (input: Record<string, unknown> = {}): RenderContext => ({
  surface: 'cli',
  input,
  label: (name) => name.split('.')[1] ?? name,
  hint: (name, args = {}) => `\`${name} ${JSON.stringify(args)}\``,
});

const effects = { navigated: false, url: 'http://x/', dialogs: [], consoleErrors: [], openedTabs: [], download: null };

describe('one typed renderer per command', () => {
  it('every manifest command has a renderer, and every renderer a command', () => {
    const names = listCommands().map((command) => command.name);
    expect(names.filter((name) => !hasRenderer(name))).toEqual([]);
    expect(Object.keys(renderers).filter((name) => !names.includes(name))).toEqual([]);
  });

  it('prints a human line where a raw key: value dump used to be', () => {
    expect(renderCommand('page.wait', { waitedMs: 1327, matched: 'text "Done"' }, cli())).toBe(
      'text "Done" after 1.3 s',
    );
    expect(renderCommand('tabs.close', { closed: 'AB12', activeTab: 'CD34' }, cli())).toBe(
      'closed tab AB12; active tab CD34',
    );
    expect(
      renderCommand(
        'tabs.list',
        {
          tabs: [
            { id: '37F0AA', index: 1, shortId: '37F0', url: 'http://a/', title: 'A', active: false },
            { id: 'C0FFEE', index: 2, shortId: 'C0FF', url: 'http://b/', title: '', active: true },
          ],
        },
        cli(),
      ),
    ).toBe('  1  37F0  A  http://a/\n* 2  C0FF  (untitled)  http://b/');
    expect(renderCommand('daemon.stop', { stopping: true }, cli())).toBe('daemon stopped (browser closed)');
    // a remote or connected browser is never said to be closed
    expect(renderCommand('daemon.stop', { stopping: true, browser: 'left_running', poolSessions: 3 }, cli())).toBe(
      'daemon stopped: 3 pool session(s) released (their browser contexts closed with the connection); the remote browsers keep running',
    );
    expect(renderCommand('daemon.stop', { stopping: true, browser: 'left_running' }, cli())).toMatch(/keeps running/);
    expect(
      renderCommand('capture.console', { messages: [], lastSeq: 0, omitted: 0, cleared: false }, cli({ errors: true })),
    ).toBe('(no console errors or uncaught exceptions)');
  });

  it('a select says every option chosen, and forms what each select offers', () => {
    const red = { value: 'r', label: 'Red' };
    const blue = { value: 'b', label: 'Blue' };
    expect(
      renderCommand('input.select', { ...effects, element: 'listbox "Colours" [e1]', selected: [red, blue] }, cli()),
    ).toBe('select listbox "Colours" [e1] -> "Red", "Blue"');
    expect(renderCommand('input.select', { ...effects, element: 'listbox "Colours" [e1]', selected: [] }, cli())).toBe(
      'select listbox "Colours" [e1] -> (none)',
    );
    const field = { tag: 'select', id: '', checked: null, required: false, disabled: false };
    const many = Array.from({ length: 23 }, (_, i) => ({ value: `${i}`, label: `n${i}`, selected: i === 2 }));
    const forms = {
      forms: [
        {
          action: null,
          method: 'get',
          name: '',
          fields: [
            {
              ...field,
              ref: 'e1',
              type: 'select-multiple',
              name: 'colours',
              label: 'Colours',
              value: 'r',
              options: [
                { ...red, selected: true },
                { value: 'g', label: 'Green', selected: false },
                { ...blue, selected: true },
              ],
            },
            { ...field, ref: 'e2', type: 'select-one', name: 'n', label: 'N', value: '2', options: many },
          ],
        },
      ],
    };
    expect(renderCommand('read.forms', forms, cli()).split('\n')).toEqual([
      'outside any form',
      '  [e1] select-multiple colours "Colours" = "Red", "Blue" options: Red | Green | Blue',
      `  [e2] select-one n "N" = "n2" options: ${many
        .slice(0, 20)
        .map((option) => option.label)
        .join(' | ')} | … 3 more (--json has all)`,
    ]);
  });

  it('type says where the keys went, and when nothing took them', () => {
    const typed = (typedInto: string | null, editable: boolean) =>
      renderCommand('input.type', { ...effects, typedInto, editable }, cli({ text: 'hello' }));
    expect(typed('textbox "Email"', true)).toBe('typed 5 character(s) into textbox "Email"');
    expect(typed(null, false)).toMatch(/^typed 5 character\(s\), but nothing had focus: the page got the keys/);
    expect(typed('button "Save"', false)).toMatch(/into button "Save", which does not take text/);
  });

  it('press says where the keys went: the focused element, or the document body', () => {
    const pressed = (element?: string | null) =>
      renderCommand(
        'input.press',
        { ...effects, ...(element === undefined ? {} : { element }) },
        cli({ key: 'Enter' }),
      );
    expect(pressed('button "Save"')).toBe('pressed Enter on button "Save"');
    expect(pressed(null)).toBe('pressed Enter on the document body (nothing had focus)');
    // not read (no document then): the press alone
    expect(pressed()).toBe('pressed Enter');
  });

  it('says when a navigation landed on a challenge, for goto and for an action that navigated', () => {
    const challenge = { kind: 'bot_check' as const, hint: 'Cloudflare interstitial: hand off with `argus handoff`' };
    expect(renderCommand('page.goto', { url: 'http://x/', title: 'X', status: 403, challenge }, cli())).toBe(
      'X — http://x/ (403)\nchallenge: bot check: Cloudflare interstitial: hand off with `argus handoff`',
    );
    expect(
      renderCommand(
        'input.click',
        { ...effects, navigated: true, element: 'link "Account"', challenge: { kind: 'login', hint: 'h' } },
        cli(),
      ),
    ).toContain('navigated to http://x/\nchallenge: login: h');
    expect(renderCommand('page.goto', { url: 'http://x/', title: 'X', status: 200 }, cli())).toBe(
      'X — http://x/ (200)',
    );
  });

  it('says when a navigation ended the frame choice, for goto and load-html', () => {
    const frameCleared = 'argus frame "#checkout"';
    expect(renderCommand('page.reload', { url: 'http://x/', title: 'X', status: 200, frameCleared }, cli())).toBe(
      'X — http://x/ (200)\nframe choice ended: `argus frame "#checkout"` chose a frame of the page this navigation left; commands run in the top document now (choose again with `argus frame <iframe>`)',
    );
    expect(renderCommand('dom.loadHtml', { url: 'file:///r.html', title: 'R', frameCleared }, cli())).toMatch(
      /^R — file:\/\/\/r\.html\nframe choice ended: `argus frame "#checkout"`/,
    );
    expect(renderCommand('dom.loadHtml', { url: 'file:///r.html', title: 'R' }, cli())).toBe('R — file:///r.html');
  });

  it('says when an action that navigated the top document ended the frame choice, after where it went', () => {
    const frameCleared = 'argus frame "#checkout"';
    const clicked = { ...effects, navigated: true, url: 'http://x/next', element: 'link "Leave"', frameCleared };
    expect(renderCommand('input.click', clicked, cli()).split('\n').slice(0, 3)).toEqual([
      'click link "Leave"',
      'navigated to http://x/next',
      'frame choice ended: `argus frame "#checkout"` chose a frame of the page this navigation left; commands run in the top document now (choose again with `argus frame <iframe>`)',
    ]);
    expect(renderCommand('input.press', { ...effects, navigated: true, frameCleared }, cli({ key: 'Enter' }))).toMatch(
      /\nframe choice ended: `argus frame "#checkout"`/,
    );
    expect(renderCommand('input.click', { ...clicked, frameCleared: undefined }, cli())).not.toContain('frame choice');
  });

  it('renders each chain step as the single command would, and says where a chain stopped', () => {
    const text = renderCommand(
      'batch.chain',
      {
        ok: false,
        failedStep: 2,
        results: [
          { index: 0, command: 'page.goto', ok: true, output: { url: 'http://x/', title: 'X', status: 200 } },
          {
            index: 1,
            command: 'snapshot.take',
            ok: true,
            output: { url: 'http://x/', title: 'X', text: 'heading "X"\n  button "Go" e1', refs: 1, truncated: false },
          },
          { index: 2, command: 'input.click', ok: false, error: { code: 'ref_stale', message: 'Ref e9 is stale.' } },
        ],
      },
      cli({ steps: [] }),
    );
    expect(text.split('\n')).toEqual([
      '[0] goto  X — http://x/ (200)',
      '[1] take',
      '  heading "X"',
      '    button "Go" e1',
      '[2] click  error[ref_stale]: Ref e9 is stale.',
      'chain stopped at step 2; later steps did not run',
    ]);
  });

  it('a snapshot continued over a page that changed says so before its lines, in one line', () => {
    const rest = { url: 'http://x/', title: 'X', text: '  button "Save 9" e12', refs: 1, truncated: false };
    expect(renderCommand('snapshot.take', rest, cli({ cursor: 's1.20' }))).toBe('  button "Save 9" e12');
    expect(
      renderCommand('snapshot.take', { ...rest, pageChanged: true }, cli({ cursor: 's1.20' })).split('\n'),
    ).toEqual([
      '[the page changed since this snapshot was cut: these lines are as it was then; `snapshot.take {}` shows it now]',
      '  button "Save 9" e12',
    ]);
  });

  it('eval says when its value was cut, and how to get more', () => {
    expect(renderCommand('page.eval', { value: 'Title', type: 'string' }, cli())).toBe('Title');
    expect(
      renderCommand(
        'page.eval',
        { value: 'xx', type: 'string', truncated: true, length: 1000 },
        cli({ maxChars: 100 }),
      ),
    ).toBe(
      'xx\n[truncated at 100 characters of a 1000-character string: raise --max-chars (up to 10000000), or return only the part you need]',
    );
    expect(
      renderCommand(
        'page.eval',
        { value: [1, '…(+9 more items)'], type: 'object', truncated: true },
        {
          ...cli(),
          surface: 'agent',
          label: (name) => (name === 'page.eval' ? 'argus_eval' : name),
        },
      ),
    ).toBe(
      // no maxChars in the input: the default applied, and is said (not a placeholder)
      '[1,"…(+9 more items)"]\n[truncated at 100000 characters: call argus_eval again with the argument maxChars: 400000 (up to 10000000), or return only the part you need]',
    );
  });

  it('reads the step input for renderers that need it (press says which key)', () => {
    const text = renderCommand(
      'batch.run',
      { succeeded: 1, failed: 0, results: [{ index: 0, command: 'input.press', ok: true, output: effects }] },
      cli({ commands: [{ command: 'input.press', input: { key: 'Enter' } }] }),
    );
    expect(text).toBe('[0] press  pressed Enter\n1 ok, 0 failed');
  });
});
