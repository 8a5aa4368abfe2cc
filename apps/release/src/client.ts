// `argus/client`: the typed client of the published `argus` package. Everything a script needs to
// reach the daemon from another project, with nothing from the workspace left to resolve.
import { type Connection, type ConnectOptions, connectToDaemon } from '@argus/client';
import { daemonEntry } from '@argus/plugin/daemon-entry';

export * from '@argus/client';
export type { AppRouter, InputOf, OutputOf } from '@argus/protocol';
export { commandByName } from '@argus/protocol';
export {
  ArgusError,
  ERROR_CODES,
  isArgusError,
  isErrorCode,
  type ArgusErrorData,
  type ErrorCode,
} from '@argus/protocol/errors';
export { ContentEnvelope } from '@argus/security';

/**
 * Connects to the daemon of the caller's workspace (`options.cwd`, default process.cwd()), starting
 * the daemon that ships in this package when none answers. Same options as `connectToDaemon`;
 * `connection.started` says whether this call started it (stop it only then).
 */
export function connect(options: ConnectOptions = {}): Promise<Connection> {
  return connectToDaemon({ autoStart: true, daemonEntry: daemonEntry(), ...options });
}
