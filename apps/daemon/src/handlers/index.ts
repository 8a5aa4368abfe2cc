import type { Handlers } from '@argus/protocol';
import type { Services } from '../services.js';
import { contentHandlers } from './content.js';
import { daemonHandlers } from './daemon.js';
import { inputHandlers } from './input.js';
import { pageHandlers } from './page.js';
import { snapshotHandlers } from './snapshot.js';
import { tabHandlers } from './tabs.js';

/** One handler per manifest command; a command without one fails to compile here. */
export function createHandlers(services: Services): Handlers {
  return {
    daemon: daemonHandlers(services),
    page: pageHandlers(services),
    snapshot: snapshotHandlers(services),
    input: inputHandlers(services),
    content: contentHandlers(services),
    tabs: tabHandlers(services),
  };
}
