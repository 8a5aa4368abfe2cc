import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InboxStore, type NewAnnotation } from './inbox-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function store(options: ConstructorParameters<typeof InboxStore>[1] = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'argus-inbox-'));
  dirs.push(dir);
  return new InboxStore(join(dir, 'inbox.json'), options);
}

function annotation(note: string, textLength = 10, elements = 1): NewAnnotation {
  return {
    source: 'command',
    tab: 't1',
    url: 'http://127.0.0.1/page.html',
    title: 'Page',
    elements: Array.from({ length: elements }, (_, index) => ({
      note: `${note} ${index}`,
      locator: 'role=button[name="Save"]',
      ref: 'e1',
      role: 'button',
      name: 'Save',
      text: 'x'.repeat(textLength),
      box: { x: 1, y: 2, width: 30, height: 20 },
      value: null,
      masked: false,
    })),
  };
}

describe('InboxStore', () => {
  it('keeps at most 200 items, the oldest going first', () => {
    let now = 1_000_000;
    const inbox = store({ now: () => now });
    for (let i = 0; i < 205; i++) {
      inbox.add(annotation(`n${i}`));
      now += 1000;
    }
    const items = inbox.list();
    expect(items).toHaveLength(200);
    expect(items[0]!.elements[0]!.note).toBe('n5 0');
    expect(items.at(-1)!.elements[0]!.note).toBe('n204 0');
  });

  it('drops items older than 7 days (clock injected), also from the file', () => {
    let now = 1_000_000;
    const inbox = store({ now: () => now });
    inbox.add(annotation('old'));
    now += 6 * 86_400_000;
    inbox.add(annotation('newer'));
    expect(inbox.list()).toHaveLength(2);
    now += 86_400_000 + 1;
    expect(inbox.list().map((item) => item.elements[0]!.note)).toEqual(['newer 0']);
    inbox.add(annotation('latest'));
    const again = new InboxStore(inbox.file, { now: () => now });
    expect(again.list().map((item) => item.elements[0]!.note)).toEqual(['newer 0', 'latest 0']);
  });

  it('stores an identical payload within 60 s once, and again after', () => {
    let now = 1_000_000;
    const inbox = store({ now: () => now });
    const first = inbox.add(annotation('same'));
    now += 59_000;
    const second = inbox.add(annotation('same'));
    expect(second).toMatchObject({ duplicate: true, item: { id: first.item.id } });
    expect(inbox.add(annotation('other')).duplicate).toBe(false);
    now += 2_000;
    expect(inbox.add(annotation('same')).duplicate).toBe(false);
    expect(inbox.list()).toHaveLength(3);
  });

  it('consumes at most 20 items and 256 KiB per call, oldest first; the rest stays unread', () => {
    let now = 1_000_000;
    const inbox = store({ now: () => now });
    for (let i = 0; i < 25; i++) {
      inbox.add(annotation(`n${i}`));
      now += 1;
    }
    const first = inbox.consume();
    expect(first.items).toHaveLength(20);
    expect(first.items[0]!.elements[0]!.note).toBe('n0 0');
    expect(first.remaining).toBe(5);
    expect(inbox.consume(2)).toMatchObject({ remaining: 3 });
    expect(inbox.consume().items).toHaveLength(3);
    expect(inbox.consume()).toEqual({ items: [], remaining: 0 });

    // ~60 KiB items: four fit in 256 KiB, the fifth waits
    for (let i = 0; i < 6; i++) {
      inbox.add(annotation(`big${i}`, 1900, 30));
      now += 1;
    }
    const big = inbox.consume();
    const bytes = big.items.reduce((sum, item) => sum + JSON.stringify(item).length, 0);
    expect(big.items.length).toBe(4);
    expect(bytes).toBeLessThanOrEqual(256 * 1024);
    expect(big.remaining).toBe(2);
  });

  it('caps an annotation at 64 KiB and records what was cut', () => {
    const inbox = store();
    const { item } = inbox.add(annotation('huge', 10_000, 40));
    expect(JSON.stringify(item).length).toBeLessThanOrEqual(64 * 1024 + 100);
    expect(item.cut).not.toBeNull();
    expect(item.cut!.textChars).toBeGreaterThan(0);
    const many = inbox.add(annotation('many', 40, 2000)).item;
    expect(many.cut!.elements).toBeGreaterThan(0);
    expect(many.elements.length + many.cut!.elements).toBe(2000);
  });

  it('writes atomically with mode 0600, leaves no temp files, and survives a bad item in the file', () => {
    const inbox = store();
    inbox.add(annotation('a'));
    inbox.add(annotation('b'));
    expect(statSync(inbox.file).mode & 0o777).toBe(0o600);
    const dir = join(inbox.file, '..');
    expect(readdirSync(dir)).toEqual(['inbox.json']);
    const file = JSON.parse(readFileSync(inbox.file, 'utf8')) as { items: unknown[] };
    file.items.push({ nonsense: true });
    writeFileSync(inbox.file, JSON.stringify(file));
    expect(new InboxStore(inbox.file).list()).toHaveLength(2);
  });

  it('finds items by id prefix, tells changes to listeners, and clears', () => {
    const inbox = store();
    const changes: number[] = [];
    inbox.onChange((change) => changes.push(change.unread));
    const { item } = inbox.add(annotation('a'));
    expect(inbox.get(item.id.slice(0, 4)).id).toBe(item.id);
    expect(() => inbox.get('zzzz')).toThrow(/No inbox item/);
    inbox.consume();
    expect(inbox.clear()).toBe(1);
    expect(changes).toEqual([1, 0, 0]);
  });
});
