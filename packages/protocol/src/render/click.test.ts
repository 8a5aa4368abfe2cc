import { describe, expect, it } from 'vitest';
import { type RenderContext, renderCommand } from './index.js';

const cli: RenderContext = {
  surface: 'cli',
  input: {},
  label: (name) => name.split('.')[1] ?? name,
  hint: (name, args = {}) => `\`${name} ${JSON.stringify(args)}\``,
};

const effects = { navigated: false, url: 'http://x/', dialogs: [], consoleErrors: [], openedTabs: [], download: null };

describe('a click whose element the page took out as it was pressed', () => {
  it('is a click done, said with where the release went and that no click event reached it', () => {
    expect(renderCommand('input.click', { ...effects, element: 'button "Save" [e3]' }, cli)).toBe(
      'click button "Save" [e3]',
    );
    const removed = renderCommand(
      'input.click',
      { ...effects, element: 'menuitem "Archive" [e8]', goneOnPress: { releasedOn: 'ul#menu', replaced: false } },
      cli,
    );
    expect(removed.split('\n')).toEqual([
      'click menuitem "Archive" [e8]',
      'the page removed it as it was pressed (it acted on the press), and the release landed on ul#menu, so no click event reached it. Not pressed again: look at the page before clicking anything again',
    ]);
    const replaced = renderCommand(
      'input.click',
      {
        ...effects,
        element: 'button "Swapped"',
        goneOnPress: { releasedOn: 'button#swapped ("Swapped")', replaced: true },
      },
      cli,
    );
    expect(replaced).toMatch(/replaced it with a like element as it was pressed \(a re-render\)/);
    expect(replaced).toMatch(/click again \(the target finds the new element\)$/);
  });
});

describe('a click that is not a single left click', () => {
  const as = (input: Record<string, unknown>) =>
    renderCommand('input.click', { ...effects, element: 'button "Save" [e3]' }, { ...cli, input });

  it('says which: right, middle or double, as the CLI and an agent both read it', () => {
    expect(as({ target: 'e3', button: 'right' })).toBe('right-click button "Save" [e3]');
    expect(as({ target: 'e3', button: 'middle' })).toBe('middle-click button "Save" [e3]');
    expect(as({ target: 'e3', double: true })).toBe('double-click button "Save" [e3]');
    expect(as({ target: 'e3', button: 'right', double: true })).toBe('right double-click button "Save" [e3]');
    expect(as({ target: 'e3', button: 'left', double: false })).toBe('click button "Save" [e3]');
    const agent = renderCommand(
      'input.click',
      { ...effects, element: 'button "Save" [e3]' },
      { ...cli, surface: 'agent', input: { target: 'e3', button: 'right' } },
    );
    expect(agent).toContain('right-click button "Save" [e3]');
  });
});
