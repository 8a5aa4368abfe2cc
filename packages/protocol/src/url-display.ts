/**
 * A URL as Argus reports it (a tab's, a frame's, a fetched page's): the password of its userinfo is
 * shown as `***`. `http://user:password@host/` is how a page that asks for HTTP authentication is
 * given credentials (`argus goto`, `argus fetch`), and Chrome keeps them in the URL it reports.
 */
export function withoutPassword(url: string): string {
  if (!url.includes('@')) return url;
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
