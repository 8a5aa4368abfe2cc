import type { Handlers } from '@argus/protocol';
import type { Services } from '../services.js';
import { readContentHandlers } from './read-content.js';
import { daemonHandlers } from './daemon.js';
import { inputHandlers } from './input.js';
import { pageHandlers } from './page.js';
import { snapshotHandlers } from './snapshot.js';
import { tabHandlers } from './tabs.js';
import { captureHandlers } from './capture.js';
import { batchHandlers } from './batch.js';
import { tokenHandlers } from './token.js';
import { sessionHandlers } from './session.js';
import { readHandlers } from './read.js';
import { inspectHandlers } from './inspect.js';
import { visualHandlers } from './visual.js';
import { inputPointerHandlers } from './input-pointer.js';
import { filesHandlers } from './files.js';
import { domHandlers } from './dom.js';
import { emulationHandlers } from './emulation.js';
import { stateHandlers } from './state.js';
import { configHandlers } from './config.js';
import { approvalsHandlers } from './approvals.js';
import { cdpHandlers } from './cdp.js';
import { webHandlers } from './web.js';
import { webCrawlHandlers } from './web-crawl.js';
import { webSearchHandlers } from './web-search.js';
import { webResearchHandlers } from './web-research.js';
import { routeHandlers } from './route.js';
import { canvasHandlers } from './canvas.js';
import { namedSessionHandlers } from './sessions.js';
import { journalHandlers } from './journal.js';
import { profileHandlers } from './profile.js';
import { screencastHandlers, watchHandlers } from './watch.js';
import { skillHandlers } from './skill.js';
import { inboxHandlers } from './inbox.js';
import { handoffHandlers } from './handoff.js';

/** One handler per manifest command; a command without one fails to compile here. */
export function createHandlers(services: Services): Handlers {
  return {
    daemon: daemonHandlers(services),
    page: pageHandlers(services),
    snapshot: snapshotHandlers(services),
    input: { ...inputHandlers(services), ...inputPointerHandlers(services) },
    tabs: tabHandlers(services),
    capture: captureHandlers(services),
    batch: batchHandlers(services),
    token: tokenHandlers(services),
    session: sessionHandlers(services),
    read: { ...readHandlers(services), ...readContentHandlers(services) },
    inspect: inspectHandlers(services),
    visual: visualHandlers(services),
    files: filesHandlers(services),
    dom: domHandlers(services),
    emulation: emulationHandlers(services),
    state: stateHandlers(services),
    config: configHandlers(services),
    approvals: approvalsHandlers(services),
    cdp: cdpHandlers(services),
    web: {
      ...webHandlers(services),
      ...webCrawlHandlers(services),
      ...webSearchHandlers(services),
      ...webResearchHandlers(services),
    },
    route: routeHandlers(services),
    canvas: canvasHandlers(services),
    sessions: namedSessionHandlers(services),
    journal: journalHandlers(services),
    profile: profileHandlers(services),
    watch: watchHandlers(services),
    screencast: screencastHandlers(services),
    skill: skillHandlers(services),
    inbox: inboxHandlers(services),
    handoff: handoffHandlers(services),
  };
}
