import type { OutputOf, RenderersOf } from './types.js';

type Entry = OutputOf<'route.add'>;
const where = (route: Entry) => (route.scope === 'all-tabs' ? 'all tabs' : `tab ${route.tab ?? '?'}`);
const line = (route: Entry) =>
  `${route.pattern}  ${route.action}  (${where(route)}, ${route.hits} handled, ${route.id})`;

export const routeRenderers: RenderersOf<'route'> = {
  'route.add': (output) => `route ${output.id} on ${where(output)}: ${output.pattern} -> ${output.action}`,
  'route.remove': (output) =>
    output.removed.length
      ? `removed ${output.removed.length} route(s): ${output.removed.join(', ')}`
      : 'no route matched',
  'route.list': (output) => {
    const { paused, resolved, pending } = output.requests;
    const counts = `requests paused ${paused}, answered ${resolved}, held ${pending}`;
    return output.routes.length ? `${output.routes.map(line).join('\n')}\n${counts}` : `(no routes)\n${counts}`;
  },
};
