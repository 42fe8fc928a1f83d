// Which hosts a webhook may reach. Project members choose webhook URLs, so without a guard they
// could make the server call internal services (SSRF): loopback, link-local (cloud metadata),
// private and other special-purpose ranges (also written inside an IPv6 address: IPv4-compatible,
// -mapped, -translated, 6to4, NAT64) are refused unless ALERTS_ALLOW_PRIVATE_TARGETS is set.
// URLs are checked when saved (literal addresses, `localhost`) and again at every delivery on the
// addresses a name resolves to, on the very lookup the connection uses (DNS rebinding).
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/** IPv4 ranges that are never a webhook receiver on the public internet. */
const PRIVATE_V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

/**
 * IPv6 forms that carry an IPv4 address inside them, as (prefix of the form, where the IPv4
 * address starts in bits). A private IPv4 address is refused in each of them too: several stacks
 * route `::7f00:1` or `2002:7f00:1::` to 127.0.0.1.
 */
const V4_IN_V6: ReadonlyArray<readonly [(hi: string, lo: string) => string, number]> = [
  [(hi, lo) => `::${hi}:${lo}`, 96], // IPv4-compatible, ::/96 (deprecated)
  [(hi, lo) => `::ffff:${hi}:${lo}`, 96], // IPv4-mapped, ::ffff:0:0/96
  [(hi, lo) => `::ffff:0:${hi}:${lo}`, 96], // IPv4-translated (SIIT), ::ffff:0:0:0/96
  [(hi, lo) => `2002:${hi}:${lo}::`, 16], // 6to4, 2002::/16
];

const blocked = new BlockList();
for (const [network, prefix] of PRIVATE_V4) {
  blocked.addSubnet(network, prefix, "ipv4");
  // The network as the two 16-bit groups an IPv6 address spells it with.
  const [a = 0, b = 0, c = 0, d = 0] = network.split(".").map(Number);
  const hi = ((a << 8) | b).toString(16);
  const lo = ((c << 8) | d).toString(16);
  for (const [embed, at] of V4_IN_V6) blocked.addSubnet(embed(hi, lo), at + prefix, "ipv6");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  // NAT64: the well-known prefix reaches IPv4 through the operator's gateway, the local-use one
  // (RFC 8215) only private networks.
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address lies in a loopback, link-local, private or otherwise special range. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  return blocked.check(address, "ipv6");
}

export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetRefusedError";
  }
}

/** The host of a URL without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/**
 * Why a target URL is refused when saved, or undefined when it is acceptable: http(s) only, no
 * credentials in it, and (unless private targets are allowed) no literal private address or
 * `localhost`. Names are checked again on every delivery, after resolution.
 */
export function targetProblem(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute http(s) URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must start with http:// or https://";
  if (url.username !== "" || url.password !== "") return "must not contain a user name or password";
  if (url.hostname === "") return "must name a host";
  if (allowPrivate) return undefined;
  const host = bareHost(url).toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) {
    return "must not point at this machine (set ALERTS_ALLOW_PRIVATE_TARGETS to allow it)";
  }
  if (isIP(host) !== 0 && isPrivateAddress(host)) {
    return "must not point at a loopback, link-local or private address (set ALERTS_ALLOW_PRIVATE_TARGETS to allow it)";
  }
  return undefined;
}

/**
 * A `lookup` for http.request that resolves every address of the name and refuses the
 * connection when any is private: the check and the connection use the same answer, so a name
 * that resolves to a public address when saved and a private one later cannot slip through.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : (options.family ?? 0);
    dnsLookup(hostname, { all: true, family }, (error, addresses: LookupAddress[]) => {
      if (error !== null) {
        callback(error, []);
        return;
      }
      const refused = allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (refused !== undefined) {
        callback(
          Object.assign(
            new TargetRefusedError(`${hostname} resolves to a private address (${refused.address}); refused`),
            { code: "ETARGETREFUSED" },
          ),
          [],
        );
        return;
      }
      const first = addresses[0];
      if (first === undefined) {
        callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
        return;
      }
      if (options.all === true) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

/** Refuses a literal private address at send time (literal hosts skip the lookup). */
export function assertDeliverable(url: URL, allowPrivate: boolean): void {
  const problem = targetProblem(url.toString(), allowPrivate);
  if (problem !== undefined) throw new TargetRefusedError(`${bareHost(url)}: target ${problem}`);
}
