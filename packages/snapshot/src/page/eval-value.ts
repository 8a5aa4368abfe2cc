import { z } from 'zod';
import { pageFunction } from './page-function.js';

/** What the page hands back for an `eval`: a JSON-safe value, cut to a budget. */
export const EvalValue = z.object({
  value: z.unknown(),
  type: z.string(),
  truncated: z.literal(true).optional(),
  length: z.number().optional(),
  /** set when even the serializer failed: the daemon turns it into a typed error */
  unserializable: z.string().optional(),
});
export type EvalValue = z.output<typeof EvalValue>;

/**
 * Turns any page value into JSON in the page, so nothing is refused by CDP's returnByValue and
 * nothing larger than `maxChars` (about, as JSON characters) leaves the page. Conventions (the
 * output schema of page.eval lists them for readers): JSON values as they are; NaN, ±Infinity, -0 and
 * BigInt as strings; Date as ISO; RegExp as `/re/g`; Map and Set as arrays; Error as {name, message,
 * stack}; functions, symbols, DOM nodes, the window and other host objects as short descriptions;
 * cycles as "[Circular]". Runs in the page's own world (the user's code ran there), so it reads
 * values through built-ins taken at the start and never throws: a getter that throws becomes a
 * "[Threw: …]" string.
 */
export const SERIALIZE_VALUE = pageFunction(
  'serializeValue',
  EvalValue,
  function (this: unknown, input: unknown, maxChars: number): EvalValue {
    const MAX_DEPTH = 100;
    const tagOf = Object.prototype.toString;
    const define = Object.defineProperty;
    const getProto = Object.getPrototypeOf;
    const stack: object[] = [];
    let used = 0;
    let truncated = false;
    let fullLength: number | undefined;

    const messageOf = (error: unknown): string => {
      try {
        return error instanceof Error ? error.message : String(error);
      } catch {
        return 'unknown error';
      }
    };
    const tag = (value: object): string => {
      try {
        return tagOf.call(value).slice(8, -1);
      } catch {
        return 'Object';
      }
    };
    /** a string as it is, or cut to what is left of the budget */
    const text = (value: string, top: boolean): string => {
      const room = maxChars - used - 2;
      if (value.length <= room) {
        used += value.length + 2;
        return value;
      }
      truncated = true;
      used = maxChars;
      let keep = Math.max(0, room);
      const last = value.charCodeAt(keep - 1);
      if (last >= 0xd800 && last <= 0xdbff) keep -= 1; // never half a surrogate pair
      if (top) {
        fullLength = value.length;
        return value.slice(0, keep);
      }
      return `${value.slice(0, keep)}…(+${value.length - keep} chars)`;
    };
    const short = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);
    const leaf = (description: string) => {
      used += description.length + 2;
      return description;
    };

    const describeNode = (node: Node): string => {
      switch (node.nodeType) {
        case 1: {
          const el = node as Element;
          let out = `<${el.localName}`;
          if (el.id) out += `#${short(el.id, 40)}`;
          const classes = (el.getAttribute('class') ?? '').trim();
          if (classes)
            out += classes
              .split(/\s+/)
              .slice(0, 3)
              .map((name) => `.${short(name, 30)}`)
              .join('');
          for (const name of ['type', 'name', 'role', 'aria-label', 'href', 'src']) {
            const attribute = el.getAttribute(name);
            if (attribute !== null) out += ` ${name}=${short(attribute, 60)}`;
          }
          out += '>';
          // a leaf element's text says which one it is (a button, a link, an option)
          const own = el.childElementCount === 0 ? (el.textContent ?? '').trim() : '';
          return own ? `${out} ${JSON.stringify(short(own.replace(/\s+/g, ' '), 40))}` : out;
        }
        case 2:
          return `${(node as Attr).name}=${JSON.stringify(short((node as Attr).value, 60))}`;
        case 3:
          return `#text ${JSON.stringify(short((node as Text).data, 40))}`;
        case 8:
          return `<!--${short((node as Comment).data, 40)}-->`;
        case 9:
          return `#document ${(node as Document).URL}`;
        case 10:
          return `<!DOCTYPE ${(node as DocumentType).name}>`;
        case 11:
          return 'host' in node ? `#shadow-root (${(node as ShadowRoot).mode})` : '#document-fragment';
        default:
          return `#${node.nodeName}`;
      }
    };
    const isNode = (value: object, kind: string): value is Node =>
      (typeof Node === 'function' && value instanceof Node) ||
      /Element$|^(Text|Comment|HTMLDocument|XMLDocument|Document|DocumentFragment|ShadowRoot|DocumentType|Attr|CDATASection|ProcessingInstruction)$/.test(
        kind,
      );
    const LISTS =
      /^(Arguments|NodeList|HTMLCollection|HTMLAllCollection|HTMLFormControlsCollection|HTMLOptionsCollection|RadioNodeList|DOMTokenList|DOMStringList|FileList|CSSRuleList|StyleSheetList|DOMRectList|TouchList)$/;

    /** up to the budget, then one "…(+N more items)" item */
    const list = (items: Iterator<unknown>, total: number, depth: number, entries: boolean): unknown[] => {
      const out: unknown[] = [];
      used += 2;
      for (let index = 0; ; index++) {
        const next = items.next();
        if (next.done) break;
        if (used >= maxChars) {
          truncated = true;
          out.push(`…(+${total - index} more items)`);
          break;
        }
        let item: unknown;
        if (entries) {
          const [key, value] = next.value as [unknown, unknown];
          used += 3;
          item = [walk(key, depth + 1) ?? null, walk(value, depth + 1) ?? null];
        } else item = walk(next.value, depth + 1);
        out.push(item === undefined ? null : item);
        used += 1;
      }
      return out;
    };
    function* indexes(value: ArrayLike<unknown>, length: number): Iterator<unknown> {
      for (let index = 0; index < length; index++) yield value[index];
    }

    const record = (value: object, keys: string[], depth: number): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      used += 2;
      for (let index = 0; index < keys.length; index++) {
        if (used >= maxChars) {
          truncated = true;
          define(out, '…', { value: `+${keys.length - index} more keys`, enumerable: true });
          break;
        }
        const key = keys[index] as string;
        let item: unknown;
        try {
          item = (value as Record<string, unknown>)[key];
        } catch (error) {
          item = `[Threw: ${messageOf(error)}]`;
        }
        const json = walk(item, depth + 1);
        if (json === undefined) continue;
        used += key.length + 4;
        // defineProperty: a "__proto__" key stays a key, and page setters on Object.prototype do not run
        define(out, key, { value: json, enumerable: true, writable: true, configurable: true });
      }
      return out;
    };

    const object = (value: object, depth: number): unknown => {
      if (stack.includes(value)) return leaf('[Circular]');
      const kind = tag(value);
      try {
        if (kind === 'Window' || ('window' in value && (value as Window).window === value)) {
          let where = '(cross-origin)';
          try {
            where = (value as Window).location.href;
          } catch {
            // a cross-origin window does not say where it is
          }
          return leaf(`[Window ${where}]`);
        }
        if (isNode(value, kind)) return leaf(describeNode(value));
        if (kind === 'Date') {
          const time = Date.prototype.getTime.call(value);
          return leaf(Number.isNaN(time) ? 'Invalid Date' : Date.prototype.toISOString.call(value));
        }
        if (kind === 'RegExp') return leaf(String(value));
        if (kind === 'Promise' || kind === 'WeakMap' || kind === 'WeakSet' || kind === 'WeakRef')
          return leaf(`[${kind}]`);
        if (kind === 'ArrayBuffer' || kind === 'SharedArrayBuffer')
          return leaf(`[${kind} ${(value as ArrayBuffer).byteLength} bytes]`);
        if (depth >= MAX_DEPTH) {
          truncated = true;
          return leaf(Array.isArray(value) ? `[Array(${value.length})]` : `[${kind}]`);
        }
        stack.push(value);
        try {
          if (kind === 'Error' || kind === 'DOMException' || value instanceof Error) {
            const error = value as Error;
            const out: Record<string, unknown> = {
              name: walk(error.name, depth + 1),
              message: walk(error.message, depth + 1),
            };
            if (typeof error.stack === 'string') out['stack'] = walk(error.stack, depth + 1);
            return out;
          }
          if (kind === 'Map')
            return list(Map.prototype.entries.call(value), (value as Map<unknown, unknown>).size, depth, true);
          if (kind === 'Set') return list(Set.prototype.values.call(value), (value as Set<unknown>).size, depth, false);
          if (Array.isArray(value) || (ArrayBuffer.isView(value) && kind !== 'DataView') || LISTS.test(kind)) {
            const length = Number((value as ArrayLike<unknown>).length) || 0;
            return list(indexes(value as ArrayLike<unknown>, length), length, depth, false);
          }
          const toJSON = (value as { toJSON?: unknown }).toJSON;
          if (typeof toJSON === 'function') return walk(toJSON.call(value), depth + 1);
          const keys = Object.keys(value);
          const proto: unknown = getProto(value);
          if (!keys.length && proto !== null && proto !== Object.prototype) {
            // a host or class object with nothing of its own to show: say what it is
            const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
            return leaf(`[${typeof name === 'string' && name ? name : kind}]`);
          }
          return record(value, keys, depth);
        } finally {
          stack.pop();
        }
      } catch (error) {
        return leaf(`[${kind}: unreadable (${messageOf(error)})]`);
      }
    };

    function walk(value: unknown, depth: number): unknown {
      switch (typeof value) {
        case 'string':
          return text(value, depth === 0);
        case 'number': {
          if (Number.isNaN(value)) return leaf('NaN');
          if (value === Infinity) return leaf('Infinity');
          if (value === -Infinity) return leaf('-Infinity');
          if (Object.is(value, -0)) return leaf('-0');
          used += String(value).length;
          return value;
        }
        case 'boolean':
          used += value ? 4 : 5;
          return value;
        case 'bigint':
          return leaf(`${value}n`);
        case 'symbol':
          return leaf(short(value.toString(), 200));
        case 'function': {
          let name = '';
          try {
            name = typeof value.name === 'string' ? value.name : '';
          } catch {
            // a function whose name getter throws is still a function
          }
          return leaf(`[function ${short(name, 100) || 'anonymous'}]`);
        }
        case 'object':
          if (value === null) {
            used += 4;
            return null;
          }
          return object(value, depth);
        default:
          return undefined;
      }
    }

    const type = input === null ? 'null' : typeof input;
    try {
      const value = walk(input, 0);
      const out: EvalValue = { value: value === undefined ? null : value, type };
      if (truncated) out.truncated = true;
      if (fullLength !== undefined) out.length = fullLength;
      return out;
    } catch (error) {
      return { value: null, type, unserializable: messageOf(error) };
    }
  },
);
