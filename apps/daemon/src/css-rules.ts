import type { CommandResult, Session } from '@argus/cdp';
import type { ElementHandle } from '@argus/snapshot';

type Matched = CommandResult<'CSS.getMatchedStylesForNode'>;
type RuleMatch = NonNullable<Matched['matchedCSSRules']>[number];
type CssStyle = RuleMatch['rule']['style'];
type Quad = number[];

export interface Declaration {
  name: string;
  value: string;
  important: boolean;
}

export interface MatchedRule {
  selector: string;
  specificity: [number, number, number];
  origin: string;
  source: string | null;
  media: string[];
  declarations: Declaration[];
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ElementStyles {
  rules: MatchedRule[];
  inline: Declaration[];
  box: { content: Rect; padding: Rect; border: Rect; margin: Rect; width: number; height: number } | null;
}

/** Declared properties only: CDP also lists the longhands a shorthand expands to, without source text. */
function declarations(style: CssStyle | undefined): Declaration[] {
  if (!style) return [];
  const live = style.cssProperties.filter((property) => property.disabled !== true && property.parsedOk !== false);
  const declared = live.filter((property) => property.text !== undefined && property.text !== '');
  return (declared.length ? declared : live.filter((property) => property.implicit !== true)).map((property) => ({
    name: property.name,
    value: property.value,
    important: property.important === true,
  }));
}

function quadRect(quad: Quad): Rect {
  const xs = [quad[0]!, quad[2]!, quad[4]!, quad[6]!];
  const ys = [quad[1]!, quad[3]!, quad[5]!, quad[7]!];
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/**
 * Specificity of one simple selector list entry, when Chrome does not report it: ids; classes,
 * attributes and pseudo-classes; types and pseudo-elements. `:where()` counts nothing;
 * `:is()/:not()/:has()` count their most specific argument.
 */
export function specificity(selector: string): [number, number, number] {
  let a = 0;
  let b = 0;
  let c = 0;
  let rest = selector;
  const functional = /:(is|not|has|where|matches)\(/i;
  for (let match = functional.exec(rest); match; match = functional.exec(rest)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (end < rest.length && depth > 0) {
      if (rest[end] === '(') depth++;
      else if (rest[end] === ')') depth--;
      end++;
    }
    const inner = rest.slice(match.index + match[0].length, end - 1);
    if (match[1]!.toLowerCase() !== 'where') {
      const best = inner
        .split(',')
        .map((part) => specificity(part))
        .sort((x, y) => y[0] - x[0] || y[1] - x[1] || y[2] - x[2])[0];
      if (best) {
        a += best[0];
        b += best[1];
        c += best[2];
      }
    }
    rest = `${rest.slice(0, match.index)} ${rest.slice(end)}`;
  }
  rest = rest.replace(/\[[^\]]*\]/g, () => {
    b++;
    return ' ';
  });
  rest = rest.replace(/::?(before|after|first-line|first-letter)\b|::[\w-]+(\([^)]*\))?/gi, () => {
    c++;
    return ' ';
  });
  rest = rest.replace(/:[\w-]+(\([^)]*\))?/g, () => {
    b++;
    return ' ';
  });
  a += (rest.match(/#[\w-]+/g) ?? []).length;
  b += (rest.match(/\.[\w-]+/g) ?? []).length;
  c += (rest.replace(/[#.][\w-]+/g, ' ').match(/(^|[\s>+~(])[a-zA-Z][\w-]*/g) ?? []).length;
  return [a, b, c];
}

/**
 * Matched rules (CSS.getMatchedStylesForNode) and box model (DOM.getBoxModel) of an element. DOM and
 * CSS are enabled on the element's session only for the call and disabled again afterwards.
 */
export async function elementStyles(handle: ElementHandle, options: { userAgent: boolean }): Promise<ElementStyles> {
  const session: Session = handle.session;
  const sheets = new Map<string, { url: string; startLine: number; inline: boolean }>();
  const off = session.on('CSS.styleSheetAdded', ({ header }) => {
    sheets.set(header.styleSheetId, { url: header.sourceURL, startLine: header.startLine, inline: header.isInline });
  });
  try {
    await session.send('DOM.enable', {});
    await session.send('CSS.enable');
    await session.send('DOM.getDocument', { depth: 0 });
    const { nodeIds } = await session.send('DOM.pushNodesByBackendIdsToFrontend', {
      backendNodeIds: [handle.backendNodeId],
    });
    const nodeId = nodeIds[0];
    if (!nodeId) return { rules: [], inline: [], box: null };
    const matched = await session.send('CSS.getMatchedStylesForNode', { nodeId });
    const rules: MatchedRule[] = [];
    for (const match of matched.matchedCSSRules ?? []) {
      const rule = match.rule;
      if (rule.origin === 'user-agent' && !options.userAgent) continue;
      const selectors = match.matchingSelectors
        .map((index) => rule.selectorList.selectors[index])
        .filter((value) => value !== undefined);
      const scores = selectors.map((value) =>
        value.specificity
          ? ([value.specificity.a, value.specificity.b, value.specificity.c] as [number, number, number])
          : specificity(value.text),
      );
      const best = scores.sort((x, y) => y[0] - x[0] || y[1] - x[1] || y[2] - x[2])[0] ?? [0, 0, 0];
      const sheet = rule.styleSheetId ? sheets.get(rule.styleSheetId) : undefined;
      const line = rule.style.range
        ? rule.style.range.startLine + (sheet?.inline ? sheet.startLine : 0) + 1
        : undefined;
      rules.push({
        selector: selectors.map((value) => value.text).join(', ') || rule.selectorList.text,
        specificity: best,
        origin: rule.origin,
        source: sheet?.url ? `${sheet.url}${line ? `:${line}` : ''}` : null,
        media: [
          ...(rule.media ?? []).map((media) => `@media ${media.text}`),
          ...(rule.containerQueries ?? []).map((query) => `@container ${query.text}`),
          ...(rule.supports ?? []).map((supports) => `@supports ${supports.text}`),
        ],
        declarations: declarations(rule.style),
      });
    }
    const model = await session
      .send('DOM.getBoxModel', { backendNodeId: handle.backendNodeId })
      .then(({ model: box }) => ({
        content: quadRect(box.content),
        padding: quadRect(box.padding),
        border: quadRect(box.border),
        margin: quadRect(box.margin),
        width: box.width,
        height: box.height,
      }))
      .catch(() => null); // no box: display none or not rendered
    return { rules, inline: declarations(matched.inlineStyle), box: model };
  } finally {
    off();
    await session.send('CSS.disable').catch(() => undefined);
    await session.send('DOM.disable').catch(() => undefined);
  }
}
