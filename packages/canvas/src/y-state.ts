import * as Y from 'yjs';
import type { Asset, CanvasDocument, CanvasNode, CanvasPage, Token } from './schema.js';

/**
 * The live state as a Y.Doc, and the two directions between it and the JSON projection.
 *
 * Layout: `meta` (id, name), `revision` (the counter; outside the undo scope so undo never rolls it
 * back), `pages` (array of page maps: id, name, rootIds array, nodes map id -> node map), `tokens`
 * (path -> map of value and modes), `assets` (id -> asset). Nodes are maps of maps so two clients
 * changing different properties of one node both keep their change.
 */

type YNode = Y.Map<unknown>;
type YPage = Y.Map<unknown>;

export function contentTypes(ydoc: Y.Doc): Y.AbstractType<unknown>[] {
  return [ydoc.getArray('pages'), ydoc.getMap('tokens'), ydoc.getMap('assets')] as Y.AbstractType<unknown>[];
}

export function readRevision(ydoc: Y.Doc): number {
  const value = ydoc.getMap('revision').get('value');
  return typeof value === 'number' ? value : 0;
}

export function writeRevision(ydoc: Y.Doc, revision: number): void {
  ydoc.getMap('revision').set('value', revision);
}

function mapOf(value: unknown): Y.Map<unknown> {
  if (value instanceof Y.Map) return value as Y.Map<unknown>;
  throw new Error('canvas Y.Doc is malformed: expected a map');
}

function arrayOf(value: unknown): string[] {
  return value instanceof Y.Array ? (value.toArray() as string[]) : [];
}

function plain(value: unknown): Record<string, unknown> {
  return value instanceof Y.Map ? (value.toJSON() as Record<string, unknown>) : {};
}

function readNode(ynode: YNode): CanvasNode {
  return {
    id: ynode.get('id') as string,
    kind: ynode.get('kind') as CanvasNode['kind'],
    name: ynode.get('name') as string,
    parentId: (ynode.get('parentId') as string | null) ?? null,
    childIds: arrayOf(ynode.get('childIds')),
    rect: plain(ynode.get('rect')) as CanvasNode['rect'],
    props: plain(ynode.get('props')) as CanvasNode['props'],
    style: plain(ynode.get('style')) as CanvasNode['style'],
    tokenRefs: plain(ynode.get('tokenRefs')) as CanvasNode['tokenRefs'],
  };
}

function readPage(ypage: YPage): CanvasPage {
  const ynodes = mapOf(ypage.get('nodes'));
  const rootIds = arrayOf(ypage.get('rootIds'));
  const nodes: CanvasNode[] = [];
  const seen = new Set<string>();
  const visit = (id: string): void => {
    const ynode = ynodes.get(id);
    if (!(ynode instanceof Y.Map) || seen.has(id)) return;
    seen.add(id);
    const node = readNode(ynode as YNode);
    nodes.push(node);
    node.childIds.forEach(visit);
  };
  rootIds.forEach(visit);
  return { id: ypage.get('id') as string, name: ypage.get('name') as string, rootIds, nodes };
}

/** The JSON projection of the live state. */
export function readDocument(ydoc: Y.Doc): CanvasDocument {
  const meta = ydoc.getMap('meta');
  const tokens: Record<string, Token> = {};
  ydoc.getMap('tokens').forEach((value, path) => {
    const ytoken = mapOf(value);
    tokens[path] = { value: ytoken.get('value') as string, modes: plain(ytoken.get('modes')) as Token['modes'] };
  });
  const assets: Record<string, Asset> = {};
  ydoc.getMap('assets').forEach((value, id) => {
    assets[id] = value as Asset;
  });
  return {
    format: 'argus-canvas',
    version: 1,
    id: meta.get('id') as string,
    name: meta.get('name') as string,
    revision: readRevision(ydoc),
    pages: ydoc.getArray('pages').map((ypage) => readPage(mapOf(ypage))),
    tokens,
    assets,
  };
}

function yMapFrom(record: Record<string, unknown>): Y.Map<unknown> {
  return new Y.Map(Object.entries(record));
}

function yArrayFrom(items: readonly string[]): Y.Array<string> {
  const array = new Y.Array<string>();
  array.push([...items]);
  return array;
}

function newYNode(node: CanvasNode): YNode {
  return new Y.Map<unknown>([
    ['id', node.id],
    ['kind', node.kind],
    ['name', node.name],
    ['parentId', node.parentId],
    ['childIds', yArrayFrom(node.childIds)],
    ['rect', yMapFrom(node.rect)],
    ['props', yMapFrom(node.props)],
    ['style', yMapFrom(node.style)],
    ['tokenRefs', yMapFrom(node.tokenRefs)],
  ]);
}

function newYPage(page: CanvasPage): YPage {
  const nodes = new Y.Map<unknown>(page.nodes.map((node) => [node.id, newYNode(node)]));
  return new Y.Map<unknown>([
    ['id', page.id],
    ['name', page.name],
    ['rootIds', yArrayFrom(page.rootIds)],
    ['nodes', nodes],
  ]);
}

function newYToken(token: Token): Y.Map<unknown> {
  return new Y.Map<unknown>([
    ['value', token.value],
    ['modes', yMapFrom(token.modes)],
  ]);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function syncArray(target: unknown, before: readonly string[], after: readonly string[]): void {
  if (!(target instanceof Y.Array) || sameJson(before, after)) return;
  target.delete(0, target.length);
  target.insert(0, [...after]);
}

function syncMap(target: unknown, before: Record<string, unknown>, after: Record<string, unknown>): void {
  const map = mapOf(target);
  for (const key of Object.keys(before)) if (!(key in after)) map.delete(key);
  for (const [key, value] of Object.entries(after)) if (!sameJson(before[key], value)) map.set(key, value);
}

function syncNode(ynode: YNode, before: CanvasNode, after: CanvasNode): void {
  for (const key of ['kind', 'name', 'parentId'] as const) if (before[key] !== after[key]) ynode.set(key, after[key]);
  syncArray(ynode.get('childIds'), before.childIds, after.childIds);
  for (const key of ['rect', 'props', 'style', 'tokenRefs'] as const) syncMap(ynode.get(key), before[key], after[key]);
}

function syncPage(ypage: YPage, before: CanvasPage, after: CanvasPage): void {
  if (before.name !== after.name) ypage.set('name', after.name);
  syncArray(ypage.get('rootIds'), before.rootIds, after.rootIds);
  const ynodes = mapOf(ypage.get('nodes'));
  const old = new Map(before.nodes.map((node) => [node.id, node]));
  const kept = new Set(after.nodes.map((node) => node.id));
  for (const id of old.keys()) if (!kept.has(id)) ynodes.delete(id);
  for (const node of after.nodes) {
    const previous = old.get(node.id);
    const ynode = ynodes.get(node.id);
    if (previous && ynode instanceof Y.Map) syncNode(ynode as YNode, previous, node);
    else ynodes.set(node.id, newYNode(node));
  }
}

/**
 * Brings the Y.Doc from `before` (its current projection) to `after`, touching only what differs.
 * Call inside one transaction so the change is one update and one undo step.
 */
export function writeDocument(ydoc: Y.Doc, before: CanvasDocument, after: CanvasDocument): void {
  const meta = ydoc.getMap('meta');
  if (meta.get('id') !== after.id) meta.set('id', after.id);
  if (meta.get('name') !== after.name) meta.set('name', after.name);
  const ypages = ydoc.getArray('pages');
  after.pages.forEach((page, index) => {
    const existing = ypages.get(index);
    const previous = before.pages[index];
    if (existing instanceof Y.Map && previous?.id === page.id) {
      syncPage(existing as YPage, previous, page);
      return;
    }
    ypages.delete(index, ypages.length - index);
    ypages.insert(index, [newYPage(page)]);
    before = { ...before, pages: before.pages.slice(0, index) };
  });
  if (ypages.length > after.pages.length) ypages.delete(after.pages.length, ypages.length - after.pages.length);
  const ytokens = ydoc.getMap('tokens');
  for (const path of Object.keys(before.tokens)) if (!(path in after.tokens)) ytokens.delete(path);
  for (const [path, token] of Object.entries(after.tokens)) {
    const previous = before.tokens[path];
    const ytoken = ytokens.get(path);
    if (previous && ytoken instanceof Y.Map) {
      if (previous.value !== token.value) ytoken.set('value', token.value);
      syncMap(ytoken.get('modes'), previous.modes, token.modes);
    } else {
      ytokens.set(path, newYToken(token));
    }
  }
  const yassets = ydoc.getMap('assets');
  for (const id of Object.keys(before.assets)) if (!(id in after.assets)) yassets.delete(id);
  for (const [id, asset] of Object.entries(after.assets))
    if (!sameJson(before.assets[id], asset)) yassets.set(id, asset);
}
