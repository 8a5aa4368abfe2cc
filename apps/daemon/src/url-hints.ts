import { ArgusError } from '@argus/protocol';

/**
 * A plain-HTTP server answering an https:// URL fails with an SSL error; say what to try. Most often
 * the URL was typed bare (`myhost:8080` gets https://) for a dev server that speaks HTTP only.
 */
export function plainHttpHint(error: unknown, url: string): unknown {
  if (!(error instanceof ArgusError) || error.code !== 'navigation_failed' || !url.startsWith('https://')) return error;
  if (
    !/ERR_SSL_PROTOCOL_ERROR|ERR_SSL_VERSION|ERR_SSL_UNRECOGNIZED_NAME|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|WRONG_VERSION_NUMBER/i.test(
      error.message,
    )
  )
    return error;
  const http = `http://${url.slice('https://'.length)}`;
  return new ArgusError(
    'navigation_failed',
    `${error.message} The server may speak plain HTTP: try \`argus goto ${http}\`.`,
    {
      ...(error.details ? { details: { ...error.details, tryUrl: http } } : { details: { tryUrl: http } }),
      cause: error,
    },
  );
}
