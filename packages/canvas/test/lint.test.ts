import { describe, expect, it } from 'vitest';
import { CanvasSession, type LintFinding, lintDocument } from '../src/index.js';
import { CARD } from './fixtures.js';

function card(): CanvasSession {
  const session = CanvasSession.create('doc', 'Doc');
  session.patch(CARD);
  return session;
}

const rules = (findings: LintFinding[]) => findings.map((finding) => `${finding.rule} ${finding.nodeId ?? '-'}`);

describe('canvas lint', () => {
  it('a clean card has no findings', () => {
    expect(lintDocument(card().toJson())).toEqual([]);
  });

  it('flags text below WCAG AA over what is painted under it, with the ratio, and large text at 3:1', () => {
    const session = card();
    session.patch([
      // #999 on white: 2.85:1, below 4.5 (normal) and 3 (large)
      { op: 'node.update', nodeId: 'label', changes: { 'style.color': '#999999' } },
      // #888 on white is 3.54:1: fails at 16px, passes as large (24px title)
      { op: 'node.update', nodeId: 'title', changes: { 'style.color': '#888888' } },
    ]);
    const findings = lintDocument(session.toJson());
    expect(rules(findings)).toEqual(['contrast label']);
    expect(findings[0]?.message).toMatch(/^text contrast 2\.85:1 is below WCAG AA 4\.5:1 for normal text \(16px\)/);
    // a dark shape under the label (a sibling, not an ancestor) is what the label is read against
    session.patch([
      {
        op: 'node.insert',
        pageId: 'page-1',
        parentId: 'actions',
        index: 0,
        node: {
          id: 'pill',
          kind: 'shape',
          rect: { x: 0, y: 0, width: 200, height: 40 },
          style: { backgroundColor: '#111' },
        },
      },
      { op: 'node.update', nodeId: 'label', changes: { 'style.color': '#ffffff' } },
    ]);
    expect(lintDocument(session.toJson())).toEqual([]);
    // a mostly transparent white pill over the white card: white text on white fails again
    session.patch([
      { op: 'node.update', nodeId: 'pill', changes: { 'style.backgroundColor': 'rgba(255,255,255,0.6)' } },
    ]);
    expect(rules(lintDocument(session.toJson()))).toEqual(['contrast label']);
  });

  it('checks colours from tokens in the mode asked for', () => {
    const session = card();
    session.patch([
      { op: 'token.set', path: 'color.text', value: '#111111' },
      { op: 'token.set', path: 'color.text', value: '#f0f0f0', mode: 'dark' },
      { op: 'node.update', nodeId: 'label', changes: { 'tokenRefs.color': 'color.text' } },
    ]);
    expect(lintDocument(session.toJson())).toEqual([]);
    expect(rules(lintDocument(session.toJson(), { mode: 'dark' }))).toEqual(['contrast label']);
  });

  it('flags a child overflowing its parent, an image without alt or with a broken source, an unknown token, a broken asset', () => {
    const session = card();
    session.patch([
      { op: 'node.update', nodeId: 'actions', changes: { 'rect.width': 500 } },
      {
        op: 'node.insert',
        pageId: 'page-1',
        parentId: 'card',
        node: {
          id: 'photo',
          kind: 'image',
          rect: { x: 300, y: 16, width: 80, height: 80 },
          props: { src: 'javascript:alert(1)' },
        },
      },
      {
        op: 'node.insert',
        pageId: 'page-1',
        parentId: 'card',
        node: {
          id: 'logo',
          kind: 'image',
          rect: { x: 300, y: 100, width: 80, height: 40 },
          props: { src: 'data:image/png;base64,%%%', alt: '' },
        },
      },
      { op: 'node.update', nodeId: 'title', changes: { 'tokenRefs.color': 'color.missing' } },
    ]);
    const doc = session.toJson();
    doc.assets['font1'] = { id: 'font1', kind: 'font', src: 'file:///etc/passwd', name: 'Body font' };
    doc.assets['font2'] = { id: 'font2', kind: 'font', src: 'data:font/woff2;base64,d09GMgAB', name: 'Ok font' };
    const findings = lintDocument(doc);
    expect(rules(findings).sort()).toEqual(
      [
        'broken-asset -',
        'overflow actions',
        'image-alt photo',
        'broken-asset photo',
        'broken-asset logo',
        'unknown-token title',
      ].sort(),
    );
    expect(findings.find((finding) => finding.rule === 'overflow')?.message).toBe(
      'overflows its parent "Card" (card): 16,180 500x40 inside 400x240',
    );
    expect(findings.find((finding) => finding.rule === 'broken-asset' && finding.nodeId === null)?.message).toContain(
      'asset "Body font" (font1)',
    );
    // one page only
    expect(lintDocument(doc, { pageId: 'nope' })).toHaveLength(1);
  });
});
