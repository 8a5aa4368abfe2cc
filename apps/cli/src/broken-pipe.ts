/**
 * Exit status when the reader of our output goes away (`argus html | head -c 50`): 141, that is
 * 128 + SIGPIPE (13), the status a shell reports for `cat`, `git log` or `yes` killed by SIGPIPE in
 * the same pipeline. Node ignores SIGPIPE and gets EPIPE from the write instead, so the CLI ends
 * itself with the status those tools end with: quietly (nothing on stderr, nothing logged as an
 * error), distinct from 0 (the output was not all delivered) and from 1 (a command error). A plain
 * pipeline reports the reader's status anyway; `set -o pipefail` and `$PIPESTATUS` see 141, as for
 * `cat`.
 */
export const BROKEN_PIPE_EXIT = 141;

interface ErrorSource {
  on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
  off(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
}

/**
 * Ends the process with BROKEN_PIPE_EXIT when a write to one of these streams fails with EPIPE (its
 * reader closed). Any other write error stays what it was: an uncaught error. Returns the undo.
 */
export function exitOnBrokenPipe(
  streams: readonly ErrorSource[],
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') exit(BROKEN_PIPE_EXIT);
    else throw error;
  };
  for (const stream of streams) stream.on('error', onError);
  return () => {
    for (const stream of streams) stream.off('error', onError);
  };
}
