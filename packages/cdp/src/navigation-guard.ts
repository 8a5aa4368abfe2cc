import type { FetchParty } from './fetch-owner.js';
import type { Session } from './session.js';

/** A document request about to leave the browser: a navigation of a frame, a redirect hop, a form submit. */
export interface GuardedRequest {
  /** The tab (page target) the request belongs to. */
  tabId: string;
  url: string;
  method: string;
  frameId: string;
  /** The page started it by submitting a form (GET or POST), as Chrome reported it. */
  formSubmission: boolean;
}

/**
 * Decides whether a document request may go on. Resolves `undefined` to let it go, or a reason to
 * block it (the frame then shows Chrome's "blocked" error page). It may wait (an approval).
 */
export type NavigationGuard = (request: GuardedRequest) => Promise<string | undefined>;

/**
 * The navigation guard as a party of the tab's Fetch owner: every document request of `session`
 * (request stage: redirects are paused again for each hop) is asked about before it may go on.
 * The owner must be enabled before the target is resumed, so a popup's first navigation is guarded
 * too. Returns the party and the removers of its listeners.
 */
export function navigationGuardParty(
  session: Session,
  tabId: string,
  guard: NavigationGuard,
  onBlocked?: (request: GuardedRequest, reason: string) => void,
): { party: FetchParty; offs: Array<() => void> } {
  // Page.frameRequestedNavigation comes before the request and says whether a form started it
  const formTargets = new Map<string, string>();
  const offs = [
    session.on('Page.frameRequestedNavigation', (event) => {
      if (event.reason === 'formSubmissionGet' || event.reason === 'formSubmissionPost')
        formTargets.set(event.frameId, event.url);
      else formTargets.delete(event.frameId);
    }),
  ];
  const party: FetchParty = {
    patterns: () => [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }],
    async decide(event) {
      if (event.resourceType !== 'Document') return undefined;
      const frameId = event.frameId;
      const formUrl = formTargets.get(frameId);
      const request: GuardedRequest = {
        tabId,
        url: event.request.url + (event.request.urlFragment ?? ''),
        method: event.request.method,
        frameId,
        formSubmission: formUrl !== undefined && (formUrl === event.request.url || event.request.method === 'POST'),
      };
      if (request.formSubmission) formTargets.delete(frameId);
      const reason = await guard(request).catch(
        (error: unknown) => `the navigation guard failed: ${(error as Error).message}`,
      );
      if (reason === undefined) return undefined;
      onBlocked?.(request, reason);
      return { action: 'fail', reason: 'BlockedByClient' };
    },
  };
  return { party, offs };
}
