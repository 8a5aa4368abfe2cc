/**
 * The one reading of the tab lease ids a caller presents (`--lease`, ARGUS_LEASE, the client's `lease`
 * option, the `x-argus-lease` header): the client reads them before it sends them, the daemon again
 * when they arrive. No zod: the CLI loads this at start-up.
 */

/** A lease id as `tabs.lease` makes it (`lease_` and 32 base64url characters), with room to grow. */
const LEASE_ID = /^lease_[\w-]{16,64}$/;

/** The most lease ids one call may present. */
export const MAX_PRESENTED_LEASES = 16;

/** What a refusal says the lease ids should look like. */
export const LEASE_IDS_EXPECTED = `up to ${MAX_PRESENTED_LEASES} lease ids as \`argus tab lease\` printed them (lease_…), comma-separated`;

/**
 * The lease ids in `value` (a comma-separated list, or several of them), or null when any is malformed.
 * Whitespace around the value and around each comma is dropped: an id is pasted with the newline
 * `argus tab lease` printed after it (`ARGUS_LEASE=$'lease_…\n'`) or listed with spaces, and a header
 * may not carry a newline at all. Nothing but whitespace is no lease ([]). An empty id between two
 * commas is malformed, like any other: the caller believes it holds a lease, so it is never dropped.
 */
export function leaseIds(value: string | readonly string[]): string[] | null {
  const ids = (typeof value === 'string' ? [value] : value).flatMap((entry) => entry.split(',')).map((id) => id.trim());
  if (ids.every((id) => id === '')) return [];
  if (ids.length > MAX_PRESENTED_LEASES || ids.some((id) => !LEASE_ID.test(id))) return null;
  return ids;
}
