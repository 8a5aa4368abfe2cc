import type { RenderersOf } from './types.js';

export const namedSessionRenderers: RenderersOf<'sessions'> = {
  // `* shop  2 tabs  https://…`: the star marks the session this call ran in
  'sessions.list': (output) => {
    const width = Math.max(...output.sessions.map((session) => session.name.length), 7);
    return output.sessions
      .map(
        (session) =>
          `${session.current ? '*' : ' '} ${session.name.padEnd(width)}  ${session.tabs} tab${session.tabs === 1 ? '' : 's'}${session.activeUrl ? `  ${session.activeUrl}` : ''}`,
      )
      .join('\n');
  },
  'sessions.close': (output) =>
    output.existed
      ? `closed session ${output.name} (${output.closedTabs} tab${output.closedTabs === 1 ? '' : 's'}, its cookies and storage)`
      : `no session named ${output.name} was open; nothing to close`,
};
