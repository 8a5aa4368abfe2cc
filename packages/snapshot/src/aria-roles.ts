/**
 * The roles a `role=` locator can name: the WAI-ARIA roles (1.2, and 1.3's additions), the DPUB and
 * graphics modules (`doc-*`, `graphics-*`), and the roles the snapshot gives elements that ARIA has
 * no word for (`iframe`, `legend`). `locate` matches the role the snapshot shows (explicit, else
 * implicit), so a name outside this list matches only an element whose own role attribute says it
 * (`<div role="foo">`): when no element has it, it is refused at once instead of waited for.
 */
const ROLES = new Set([
  'alert',
  'alertdialog',
  'application',
  'article',
  'banner',
  'blockquote',
  'button',
  'caption',
  'cell',
  'checkbox',
  'code',
  'columnheader',
  'combobox',
  'comment',
  'complementary',
  'contentinfo',
  'definition',
  'deletion',
  'dialog',
  'directory',
  'document',
  'emphasis',
  'feed',
  'figure',
  'form',
  'generic',
  'grid',
  'gridcell',
  'group',
  'heading',
  'iframe',
  'img',
  'insertion',
  'legend',
  'link',
  'list',
  'listbox',
  'listitem',
  'log',
  'main',
  'mark',
  'marquee',
  'math',
  'menu',
  'menubar',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'meter',
  'navigation',
  'none',
  'note',
  'option',
  'paragraph',
  'presentation',
  'progressbar',
  'radio',
  'radiogroup',
  'region',
  'row',
  'rowgroup',
  'rowheader',
  'scrollbar',
  'search',
  'searchbox',
  'sectionfooter',
  'sectionheader',
  'separator',
  'slider',
  'spinbutton',
  'status',
  'strong',
  'subscript',
  'suggestion',
  'superscript',
  'switch',
  'tab',
  'table',
  'tablist',
  'tabpanel',
  'term',
  'textbox',
  'time',
  'timer',
  'toolbar',
  'tooltip',
  'tree',
  'treegrid',
  'treeitem',
]);

/** Words people write for a role (HTML tags mostly), and the roles the snapshot shows for them. */
const SAID_FOR: Record<string, string[]> = {
  a: ['link'],
  input: ['textbox', 'checkbox', 'radio'],
  textarea: ['textbox'],
  text: ['textbox'],
  textfield: ['textbox'],
  field: ['textbox'],
  select: ['combobox', 'listbox'],
  dropdown: ['combobox'],
  nav: ['navigation'],
  header: ['banner'],
  footer: ['contentinfo'],
  aside: ['complementary'],
  section: ['region'],
  image: ['img'],
  h1: ['heading'],
  h2: ['heading'],
  h3: ['heading'],
  h4: ['heading'],
  h5: ['heading'],
  h6: ['heading'],
  ul: ['list'],
  ol: ['list'],
  li: ['listitem'],
  tr: ['row'],
  td: ['cell'],
  th: ['columnheader'],
  p: ['paragraph'],
  toggle: ['switch', 'checkbox'],
};

const COMMON = ['button', 'link', 'textbox', 'checkbox', 'combobox', 'heading'];

/** True for a role a `role=` locator can match (lower-case). */
export function isKnownRole(role: string): boolean {
  return ROLES.has(role) || /^(?:doc|graphics)-[a-z]+$/.test(role);
}

/** Up to three known roles close to an unknown one: the usual word for it, else the nearest by spelling. */
export function nearestRoles(role: string): string[] {
  const said = SAID_FOR[role];
  if (said) return said;
  const limit = Math.max(2, Math.floor(role.length / 3));
  const near = [...ROLES]
    .map((known) => ({ known, distance: editDistance(role, known) }))
    .filter(({ known, distance }) => distance <= limit || (role.length >= 4 && known.startsWith(role)))
    .sort((a, b) => a.distance - b.distance || a.known.localeCompare(b.known))
    .slice(0, 3)
    .map(({ known }) => known);
  return near.length ? near : COMMON;
}

/** Levenshtein distance (roles are short: the quadratic table is a few hundred cells). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
