// A local ESLint rule: a relative import must stay inside its own workspace package. Reaching into a
// sibling package's folder (`../../extension/test/helpers/x.js`) bypasses its published entry and the
// layer rule, which only sees `@argus/...` specifiers. Pure path arithmetic: no resolver needed.
import { dirname, relative, resolve, sep } from 'node:path';

const WORKSPACE_GROUPS = new Set(['packages', 'apps', 'tooling']);

/** `packages/cdp` for any path under it; `bench` for the benches; undefined outside the workspace folders. */
export function workspaceOf(root, file) {
  const parts = relative(root, file).split(sep);
  if (parts[0] === '..' || parts.length < 2) return undefined;
  if (WORKSPACE_GROUPS.has(parts[0])) return parts.length > 2 ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0];
}

/** @type {import('eslint').Rule.RuleModule} */
export const noCrossPackageRelative = {
  meta: {
    type: 'problem',
    docs: { description: 'Relative imports stay inside their own workspace package.' },
    schema: [],
    messages: {
      crossing:
        '{{from}} reaches into {{to}} by a relative path ({{spec}}): import it by its package name through a published entry.',
    },
  },
  create(context) {
    const root = context.cwd;
    const from = workspaceOf(root, context.filename);
    function check(node) {
      const spec = node.source && node.source.value;
      if (typeof spec !== 'string' || !spec.startsWith('.') || !from) return;
      const to = workspaceOf(root, resolve(dirname(context.filename), spec));
      if (to && to !== from) context.report({ node: node.source, messageId: 'crossing', data: { from, to, spec } });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'no-cross-package-relative': noCrossPackageRelative } };
