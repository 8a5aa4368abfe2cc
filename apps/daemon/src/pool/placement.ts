import { redactText } from '@argus/security';

/** What placement needs to know of one endpoint. */
export interface Slot {
  health: 'unchecked' | 'healthy' | 'down';
  /** Sessions placed on it now. */
  load: number;
  max: number;
}

/**
 * The endpoint a new session goes to: among those not known to be down, not full and not already
 * tried for this placement, the least loaded one (sessions spread out, so one endpoint's death costs
 * as few as possible); ties go to the earlier endpoint in the configured order. Undefined: none fits.
 */
export function choosePlacement(slots: readonly Slot[], tried: ReadonlySet<number> = new Set()): number | undefined {
  let best: number | undefined;
  slots.forEach((slot, index) => {
    if (slot.health === 'down' || slot.load >= slot.max || tried.has(index)) return;
    // an endpoint that answered beats one nobody has reached yet at the same load
    const rank = (candidate: Slot) => candidate.load * 2 + (candidate.health === 'healthy' ? 0 : 1);
    if (best === undefined || rank(slot) < rank(slots[best]!)) best = index;
  });
  return best;
}

/** A URL as shown in status and logs: credentials (browserless `?token=`, user:password@) masked. */
export function displayUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, '***');
    return url.href.replaceAll('%2A%2A%2A', '***');
  } catch {
    return raw;
  }
}

/**
 * `text` (a connect error, a reason an endpoint went down) with the browser URL it quotes shown as
 * displayUrl shows it, and any other credential in it (the ws:// URL /json/version answered with, a
 * Bearer token) redacted: a grid's or a remote browser's token must not reach a caller, status or a log.
 */
export function withEndpointMasked(text: string, url: string): string {
  return redactText(text.split(url).join(displayUrl(url)));
}
