// Which addresses a webhook may reach in SaaS mode: the public internet only. The server posts
// wherever a user says, so a receiver on loopback, a private network, link-local (cloud metadata
// at 169.254.169.254) or any other special-purpose range would let a user probe or call what
// sits beside the server.
import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

// Two lists: one BlockList with both families matches every IPv4 address against the
// IPv4-mapped IPv6 range.
const special = { ipv4: new BlockList(), ipv6: new BlockList() };
// IANA special-purpose IPv4 ranges (RFC 6890 and successors).
const SPECIAL_IPV4 = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const;
for (const [net, prefix] of SPECIAL_IPV4) {
  special.ipv4.addSubnet(net, prefix, "ipv4");
  // 6to4 (2002::/16) carries an IPv4 address in its next 32 bits, and a relay delivers to it:
  // 2002:0a00::/24 reaches 10.0.0.0/8. A 6to4 address is as public as the address it carries.
  special.ipv6.addSubnet(sixToFour(net), 16 + prefix, "ipv6");
}
// IPv6: unspecified, loopback and IPv4-compatible (::a.b.c.d, deprecated, which some stacks
// still route to the IPv4 address), IPv4-mapped and IPv4-translated, NAT64 (each may carry a
// private IPv4), discard, Teredo (its client address is obfuscated, so the whole prefix),
// benchmarking, documentation, unique local, link-local, multicast.
for (const [net, prefix] of [
  ["::", 96],
  ["::ffff:0:0", 96],
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:2::", 48],
  ["2001:db8::", 32],
  ["3fff::", 20],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  special.ipv6.addSubnet(net, prefix, "ipv6");
}

/** The 6to4 prefix that carries an IPv4 address: 10.1.2.3 → 2002:a01:203::. */
function sixToFour(ipv4: string): string {
  const [a, b, c, d] = ipv4.split(".").map(Number);
  return `2002:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}::`;
}

/** True for an IP address on the public internet; false for special-purpose ones and non-addresses. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !special.ipv4.check(address, "ipv4") : !special.ipv6.check(address, "ipv6");
}

/**
 * A `lookup` for http(s).request that resolves as usual and refuses a name with any
 * non-public address. The connection goes to the address checked here, so a name that
 * resolves publicly when checked and privately a moment later (DNS rebinding) gains nothing.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, resolved: LookupAddress[]) => {
    if (err) return callback(err, "", 0);
    const refused = resolved.find((a) => !isPublicAddress(a.address));
    if (refused || resolved.length === 0) {
      const error = Object.assign(new Error(`refused: ${hostname} resolves to ${refused?.address ?? "no address"}, not a public address`), {
        code: "EADDRNOTPUBLIC",
      });
      return callback(error, "", 0);
    }
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, resolved);
    callback(null, resolved[0].address, resolved[0].family);
  });
};
