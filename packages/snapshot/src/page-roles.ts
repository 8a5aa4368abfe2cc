import type { VisibilityKit } from './page-visibility.js';

/** Roles, states and values as the snapshot reports them (the in-page half; see page-walker.ts). */
export interface RolesKit {
  /** roles that get a ref */
  INTERACTIVE_ROLES: Set<string>;
  /** roles named from their content when nothing else names them */
  NAME_FROM_CONTENT: Set<string>;
  /** roles that never get their own line unless named: their content is hoisted into the parent */
  HOIST: Set<string>;
  implicitRole(el: Element, tag: string): string | null;
  states(el: Element, tag: string, role: string): string[] | undefined;
  valueOf(el: Element, tag: string, role: string, max: number): string | undefined;
  /** The element that makes its content editable (contenteditable), not one of its descendants: a text box. */
  isEditingHost(el: Element): boolean;
  /** A `<label>`'s control and whether the page shows it (one look at its box and style); null for anything else. */
  labelled(el: Element): LabelledControl | null;
  /**
   * The native checkbox, radio button or file input that `el`, a `<label>`, stands in for: one the page
   * does not show (display:none, `hidden`, visibility:hidden, clipped or shrunk away: the usual styled
   * toggle, button group or upload button), so a click on the label is how a person operates it. The
   * snapshot gives such a label the control's role, state and ref. Null for anything else, and for a
   * control made transparent over its box (a click reaches the control itself, which gets the ref).
   * `look` is the label's `labelled` when the caller has it already.
   */
  standIn(el: Element, look?: LabelledControl | null): HTMLInputElement | null;
  /**
   * Whether a label (its `labelled`) names a control that is shown with a ref of its own: the
   * control's line carries the label's text as its name, so the label's own text would say it twice.
   */
  namesShownControl(look: LabelledControl | null): boolean;
}

export interface LabelledControl {
  control: HTMLElement;
  /** the walk gives the control a ref of its own (a transparent one over its box too) */
  shown: boolean;
}

/**
 * Runs INSIDE the page (serialised into the walker's bundle, see frame-eval.ts): it must not refer
 * to anything outside its own body.
 */
export function rolesKit(vis: VisibilityKit): RolesKit {
  const norm = (s: string) => s.replace(/\s+/g, ' ');
  const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max - 1).trimEnd() + '…' : s);
  const INTERACTIVE_ROLES = new Set([
    'button',
    'link',
    'checkbox',
    'radio',
    'switch',
    'tab',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'combobox',
    'textbox',
    'searchbox',
    'slider',
    'spinbutton',
    'treeitem',
    'gridcell',
    'scrollbar',
    'listbox',
  ]);
  const NAME_FROM_CONTENT = new Set([
    'button',
    'link',
    'heading',
    'tab',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'treeitem',
    'checkbox',
    'radio',
    'switch',
    'columnheader',
    'rowheader',
    'tooltip',
    'clickable',
    'legend',
    'caption',
  ]);
  const HOIST = new Set([
    'generic',
    'presentation',
    'none',
    'paragraph',
    'group',
    'region',
    'figure',
    'blockquote',
    'code',
    'term',
    'definition',
    'legend',
    'caption',
    'note',
    'emphasis',
    'strong',
    'time',
    'mark',
    'deletion',
    'insertion',
    'subscript',
    'superscript',
  ]);
  const INPUT_ROLES: Record<string, string> = {
    checkbox: 'checkbox',
    radio: 'radio',
    range: 'slider',
    number: 'spinbutton',
    search: 'searchbox',
    submit: 'button',
    reset: 'button',
    button: 'button',
    image: 'button',
    file: 'button',
    color: 'button',
  };
  const SIMPLE_ROLES: Record<string, string> = {
    BUTTON: 'button',
    TEXTAREA: 'textbox',
    NAV: 'navigation',
    MAIN: 'main',
    ASIDE: 'complementary',
    SEARCH: 'search',
    FORM: 'form',
    ARTICLE: 'article',
    DIALOG: 'dialog',
    UL: 'list',
    OL: 'list',
    MENU: 'list',
    LI: 'listitem',
    TABLE: 'table',
    TR: 'row',
    TD: 'cell',
    CAPTION: 'caption',
    P: 'paragraph',
    BLOCKQUOTE: 'blockquote',
    FIGURE: 'figure',
    HR: 'separator',
    PROGRESS: 'progressbar',
    METER: 'meter',
    OUTPUT: 'status',
    FIELDSET: 'group',
    LEGEND: 'legend',
    DETAILS: 'group',
    IFRAME: 'iframe',
    FRAME: 'iframe',
    H1: 'heading',
    H2: 'heading',
    H3: 'heading',
    H4: 'heading',
    H5: 'heading',
    H6: 'heading',
    PRE: 'code',
    DT: 'term',
    DD: 'definition',
    SECTION: 'region',
  };

  function implicitRole(el: Element, tag: string): string | null {
    const simple = SIMPLE_ROLES[tag];
    if (simple) return simple;
    switch (tag) {
      case 'A':
      case 'AREA':
        return el.hasAttribute('href') ? 'link' : null;
      case 'INPUT': {
        const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
        if (type === 'hidden') return null;
        if (INPUT_ROLES[type]) return INPUT_ROLES[type]!;
        return el.hasAttribute('list') ? 'combobox' : 'textbox';
      }
      case 'SELECT':
        return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
      case 'IMG':
        return el.getAttribute('alt') === '' && !el.hasAttribute('title') ? 'presentation' : 'img';
      case 'SVG':
      case 'svg':
        return 'img';
      case 'TH':
        return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'HEADER':
      case 'FOOTER':
        return el.parentElement?.closest('article,aside,main,nav,section,[role=article],[role=main],[role=region]')
          ? null
          : tag === 'HEADER'
            ? 'banner'
            : 'contentinfo';
      case 'SUMMARY':
        return el.parentElement?.tagName === 'DETAILS' ? 'button' : null;
      default:
        return null;
    }
  }

  function states(el: Element, tag: string, role: string): string[] | undefined {
    const out: string[] = [];
    const attr = (name: string) => el.getAttribute(name);
    if (tag === 'INPUT' && (role === 'checkbox' || role === 'radio')) {
      const input = el as HTMLInputElement;
      if (input.indeterminate) out.push('checked=mixed');
      else if (input.checked) out.push('checked');
    } else {
      const checked = attr('aria-checked');
      if (checked === 'true') out.push('checked');
      else if (checked === 'mixed') out.push('checked=mixed');
    }
    if (attr('aria-selected') === 'true') out.push('selected');
    const pressed = attr('aria-pressed');
    if (pressed === 'true') out.push('pressed');
    else if (pressed === 'mixed') out.push('pressed=mixed');
    const expanded = attr('aria-expanded');
    if (expanded === 'true' || expanded === 'false') out.push(expanded === 'true' ? 'expanded' : 'expanded=false');
    else if (tag === 'SUMMARY' && role === 'button')
      out.push((el.parentElement as HTMLDetailsElement).open ? 'expanded' : 'expanded=false');
    if (
      attr('aria-disabled') === 'true' ||
      ((tag === 'BUTTON' || tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') && el.matches(':disabled'))
    )
      out.push('disabled');
    if (attr('aria-required') === 'true' || (el as HTMLInputElement).required === true) out.push('required');
    const invalid = attr('aria-invalid');
    if (
      (invalid && invalid !== 'false') ||
      ((tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') && el.matches(':user-invalid'))
    )
      out.push('invalid');
    // an open modal dialog makes the rest of the page inert: the format lists it first
    if ((role === 'dialog' || role === 'alertdialog') && (el.matches(':modal') || attr('aria-modal') === 'true'))
      out.push('modal');
    if (role === 'heading') out.push('level=' + (attr('aria-level') || (/^H[1-6]$/.test(tag) ? tag[1] : '2')));
    const current = attr('aria-current');
    if (current && current !== 'false') out.push(current === 'true' ? 'current' : 'current=' + current);
    return out.length ? out : undefined;
  }

  function valueOf(el: Element, tag: string, role: string, max: number): string | undefined {
    if (tag === 'INPUT') {
      const input = el as HTMLInputElement;
      const type = input.type;
      if (
        type === 'checkbox' ||
        type === 'radio' ||
        type === 'submit' ||
        type === 'reset' ||
        type === 'button' ||
        type === 'image'
      )
        return undefined;
      if (type === 'file')
        return input.files && input.files.length ? Array.from(input.files, (f) => f.name).join(', ') : undefined;
      if (!input.value) return undefined;
      return type === 'password' ? '••••' : clip(norm(input.value), max);
    }
    if (tag === 'TEXTAREA')
      return (el as HTMLTextAreaElement).value ? clip(norm((el as HTMLTextAreaElement).value), max) : undefined;
    if (tag === 'SELECT') {
      const selected = Array.from((el as HTMLSelectElement).selectedOptions, (o) => norm(o.label || o.text).trim());
      return selected.length ? clip(selected.join(', '), max) : undefined;
    }
    const now = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
    if (
      now &&
      (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'meter' || role === 'scrollbar')
    )
      return now;
    if (tag === 'PROGRESS' || tag === 'METER') return String((el as HTMLProgressElement).value);
    if ((role === 'textbox' || role === 'searchbox' || role === 'combobox') && (el as HTMLElement).isContentEditable) {
      const text = norm(el.textContent || '').trim();
      return text ? clip(text, max) : undefined;
    }
    return undefined;
  }

  function isEditingHost(el: Element): boolean {
    return (el as HTMLElement).isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
  }

  /** Whether a native control is shown, so the walk gives it a ref of its own (a transparent one over its box too). */
  function shownControl(control: HTMLElement): boolean {
    if (!control.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)) return false;
    const rect = control.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return false;
    const style = getComputedStyle(control);
    if (parseFloat(style.opacity) < 0.05) return true;
    return !vis.hiddenBox(control, style, style.display) && rect.width > 1 && rect.height > 1;
  }

  function labelled(el: Element): LabelledControl | null {
    const control = el.tagName === 'LABEL' ? ((el as HTMLLabelElement).control as HTMLElement | null) : null;
    return control ? { control, shown: shownControl(control) } : null;
  }

  function standIn(el: Element, look = labelled(el)): HTMLInputElement | null {
    const control = look && !look.shown ? (look.control as HTMLInputElement) : null;
    return control && control.tagName === 'INPUT' && /^(?:checkbox|radio|file)$/.test(control.type) ? control : null;
  }

  function namesShownControl(look: LabelledControl | null): boolean {
    if (!look || !look.shown) return false;
    const control = look.control;
    return (
      !control.hasAttribute('aria-label') &&
      !control.hasAttribute('aria-labelledby') &&
      (control as HTMLInputElement).type !== 'hidden'
    );
  }

  return {
    INTERACTIVE_ROLES,
    NAME_FROM_CONTENT,
    HOIST,
    implicitRole,
    states,
    valueOf,
    isEditingHost,
    labelled,
    standIn,
    namesShownControl,
  };
}
