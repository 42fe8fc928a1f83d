// The client's address: the socket's peer unless the app sits behind proxies it trusts, then
// the X-Forwarded-For entry the trusted hops vouch for. Off by default: a forwarded header
// from an untrusted peer is just text anyone can send.

/** `false` (default): the socket address. `true`: the first X-Forwarded-For entry. A number n:
 *  the entry n hops from the right (n trusted proxies in front of the app). */
export type TrustProxy = boolean | number;

export function clientIp(
  remoteAddress: string | undefined,
  forwardedFor: string | string[] | null | undefined,
  trust: TrustProxy,
): string {
  const peer = stripMapped(remoteAddress ?? "");
  if (trust === false || trust === 0 || forwardedFor === undefined || forwardedFor === null) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (hops.length === 0) return peer;
  const chosen = trust === true ? hops[0] : hops[Math.max(0, hops.length - trust)];
  return stripMapped(chosen ?? peer);
}

function stripMapped(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}
