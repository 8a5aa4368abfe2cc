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
 * Pauses every document request of `session` (Fetch domain, request stage: redirects are paused
 * again for each hop) and asks `guard` before letting it through. Must be set up before the target
 * is resumed, so a popup's first navigation is guarded too. Returns the listeners' removers.
 */
export function attachNavigationGuard(
  session: Session,
  tabId: string,
  guard: NavigationGuard,
  onBlocked?: (request: GuardedRequest, reason: string) => void,
): { offs: Array<() => void>; enable: Promise<unknown> } {
  // Page.frameRequestedNavigation comes before the request and says whether a form started it
  const formTargets = new Map<string, string>();
  const offs = [
    session.on('Page.frameRequestedNavigation', (event) => {
      if (event.reason === 'formSubmissionGet' || event.reason === 'formSubmissionPost')
        formTargets.set(event.frameId, event.url);
      else formTargets.delete(event.frameId);
    }),
    session.on('Fetch.requestPaused', (event) => {
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
      void guard(request)
        .catch((error: unknown) => `the navigation guard failed: ${(error as Error).message}`)
        .then((reason) => {
          if (reason === undefined) return session.send('Fetch.continueRequest', { requestId: event.requestId });
          onBlocked?.(request, reason);
          return session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
        })
        // the tab may have closed meanwhile: nothing left to continue or fail
        .catch(() => undefined);
    }),
  ];
  const enable = session.send('Fetch.enable', {
    patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }],
  });
  return { offs, enable };
}
