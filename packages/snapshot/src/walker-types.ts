/**
 * The tree the in-page walker returns (by value) for one frame. Kept terse on purpose: it crosses
 * the protocol as JSON on every snapshot.
 */
export interface WalkNode {
  /** role */
  r: string;
  /** accessible name (quoted in the output) */
  n?: string;
  /** fallback description for nameless controls, e.g. `icon: reply` (unquoted in the output) */
  h?: string;
  /** context from the repeated row the control sits in (a todo's text, a post's author), for unnamed or same-named controls */
  x?: string;
  /** where a link with a row context goes: same-named links to the same place need no context */
  u?: string;
  /**
   * 1 on a link that repeats an earlier link of the same row or card: same name, same destination (a
   * card's overlay link over its headline link). Interactive mode does not print it.
   */
  d?: 1;
  /** walker id of the element (interactive elements only) */
  id?: number;
  /** ref assigned by the engine from `id` */
  ref?: string;
  /** states, already rendered: `checked`, `expanded=false`, `level=2` */
  s?: string[];
  /** current value of a form control */
  v?: string;
  /** children: nodes and text runs */
  c?: Array<WalkNode | string>;
  /** index of an iframe element in the walker's frame list */
  f?: number;
  /** 1 when the element is interactive (has or should have a ref) */
  i?: 1;
}

export interface WalkOptions {
  /** walker id of the element to start from (scope by ref) */
  rootId?: number;
  /** CSS selector of the element to start from (scope by selector) */
  rootSelector?: string;
  /** max characters kept of a text run or name */
  textMax: number;
}

export interface WalkResult {
  /** random per-document token; a ref minted under another token is stale */
  token: string;
  title: string;
  tree: WalkNode | null;
  /** number of iframe elements recorded (see WalkNode.f) */
  frames: number;
  error?: 'scope_not_found' | 'bad_selector';
}
