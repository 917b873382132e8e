/**
 * Which IP addresses the fetch tool may connect to: public unicast only. Everything a
 * server-side request forgery aims at (loopback, private networks, link-local, cloud
 * metadata services, translation prefixes that smuggle one of those) is refused.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = readonly [Address, number];

interface DeniedRange {
  readonly range: Range;
  readonly reason: string;
}

function cidr(text: string): Range {
  return ipaddr.parseCIDR(text);
}

type RangeTable = readonly (readonly [string, string])[];

function ranges(entries: RangeTable): readonly DeniedRange[] {
  return entries.map(([text, reason]) => ({ range: cidr(text), reason }));
}

/** Cloud metadata endpoints: refused even for hosts and ranges the user allowed. */
const METADATA_RANGES: RangeTable = [
  ["169.254.169.254/32", "a cloud metadata service (AWS, GCP, Azure, OpenStack)"],
  ["169.254.170.2/32", "the AWS ECS task metadata service"],
  ["100.100.100.200/32", "the Alibaba Cloud metadata service"],
  ["168.63.129.16/32", "the Azure WireServer (platform metadata)"],
  ["fd00:ec2::254/128", "the AWS metadata service (IPv6)"],
  ["fd20:ce::254/128", "the GCP metadata service (IPv6)"],
];

const IPV4_RANGES: RangeTable = [
  ["0.0.0.0/8", "an unspecified ('this network') address"],
  ["10.0.0.0/8", "a private (RFC 1918) address"],
  ["100.64.0.0/10", "a carrier-grade NAT (RFC 6598) address"],
  ["127.0.0.0/8", "a loopback address"],
  ["169.254.0.0/16", "a link-local address"],
  ["172.16.0.0/12", "a private (RFC 1918) address"],
  ["192.0.0.0/24", "an IETF protocol assignment (RFC 6890)"],
  ["192.0.2.0/24", "a documentation address"],
  ["192.88.99.0/24", "a deprecated 6to4 relay address"],
  ["192.168.0.0/16", "a private (RFC 1918) address"],
  ["198.18.0.0/15", "a benchmarking address (RFC 2544)"],
  ["198.51.100.0/24", "a documentation address"],
  ["203.0.113.0/24", "a documentation address"],
  ["224.0.0.0/4", "a multicast address"],
  ["255.255.255.255/32", "the broadcast address"],
  ["240.0.0.0/4", "a reserved address"],
];

/**
 * IPv6 ranges refused outright. 6to4 (2002::/16) and Teredo (2001::/32) are refused
 * wholesale, whatever IPv4 they embed: both are deprecated and only tunnel to hosts an
 * attacker picks. The IPv4-compatible range ::/96 is refused explicitly (ipaddr.js calls
 * `::7f00:1` "unicast").
 */
const IPV6_RANGES: RangeTable = [
  ["::/128", "the unspecified address"],
  ["::1/128", "the loopback address"],
  ["::/96", "an IPv4-compatible address (deprecated, ::/96)"],
  ["::ffff:0:0:0/96", "an IPv4-translated address (RFC 6145)"],
  ["64:ff9b:1::/48", "a local-use NAT64 address (RFC 8215)"],
  ["100::/64", "a discard-only address (RFC 6666)"],
  ["2001::/32", "a Teredo tunnel address"],
  ["2001::/23", "an IETF protocol assignment (RFC 2928)"],
  ["2001:db8::/32", "a documentation address"],
  ["2002::/16", "a 6to4 tunnel address"],
  ["3fff::/20", "a documentation address (RFC 9637)"],
  ["fc00::/7", "a unique local (private) address"],
  ["fe80::/10", "a link-local address"],
  ["fec0::/10", "a site-local address (deprecated)"],
  ["ff00::/8", "a multicast address"],
];

interface DeniedTables {
  readonly metadata: readonly DeniedRange[];
  readonly ipv4: readonly DeniedRange[];
  readonly ipv6: readonly DeniedRange[];
  readonly globalUnicast: Range;
  readonly ipv4Mapped: Range;
  readonly nat64: Range;
}

let parsedTables: DeniedTables | undefined;

/**
 * The tables above, parsed on the first address checked: parsing them costs a few
 * milliseconds that a run which never fetches would pay at start-up.
 */
function tables(): DeniedTables {
  parsedTables ??= {
    metadata: ranges(METADATA_RANGES),
    ipv4: ranges(IPV4_RANGES),
    ipv6: ranges(IPV6_RANGES),
    globalUnicast: cidr("2000::/3"),
    ipv4Mapped: cidr("::ffff:0:0/96"),
    nat64: cidr("64:ff9b::/96"),
  };
  return parsedTables;
}

function find(address: Address, list: readonly DeniedRange[]): string | undefined {
  for (const { range, reason } of list) {
    if (range[0].kind() === address.kind() && address.match(range[0], range[1])) return reason;
  }
  return undefined;
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = address.toByteArray().slice(12);
  return new ipaddr.IPv4(bytes);
}

/**
 * The parsed address, or undefined when the text is not one IP address. IPv6 text is
 * first canonicalised by the WHATWG URL parser: ipaddr.js reads a dotted tail such as
 * `::8.8.8.8` (IPv4-compatible, what inet_ntop prints for ::808:808) as IPv4-mapped.
 * Zone ids are not accepted.
 */
export function parseAddress(text: string): Address | undefined {
  const family = isIP(text);
  try {
    if (family === 4) return ipaddr.IPv4.parse(text);
    if (family === 6 && !text.includes("%")) {
      return ipaddr.IPv6.parse(new URL(`http://[${text}]/`).hostname.slice(1, -1));
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The metadata service an address belongs to, if any (IPv4-mapped and NAT64 forms included). */
export function metadataReason(text: string): string | undefined {
  const address = parseAddress(text);
  if (address === undefined) return undefined;
  const { metadata, ipv4Mapped, nat64 } = tables();
  const direct = find(address, metadata);
  if (direct !== undefined || address.kind() === "ipv4") return direct;
  const v6 = address as ipaddr.IPv6;
  const embeds = v6.match(ipv4Mapped[0], ipv4Mapped[1]) || v6.match(nat64[0], nat64[1]);
  return embeds ? find(embeddedIPv4(v6), metadata) : undefined;
}

function deniedIPv6(address: ipaddr.IPv6): string | undefined {
  const { ipv6, globalUnicast, ipv4Mapped, nat64 } = tables();
  // Addresses that carry an IPv4 address are judged by that address.
  if (address.match(ipv4Mapped[0], ipv4Mapped[1])) {
    const reason = deniedIPv4(embeddedIPv4(address));
    return reason === undefined ? undefined : `an IPv4-mapped form of ${reason}`;
  }
  if (address.match(nat64[0], nat64[1])) {
    const reason = deniedIPv4(embeddedIPv4(address));
    return reason === undefined ? undefined : `a NAT64 (64:ff9b::/96) form of ${reason}`;
  }
  const listed = find(address, ipv6);
  if (listed !== undefined) return listed;
  if (!address.match(globalUnicast[0], globalUnicast[1])) {
    return "not a global unicast address (outside 2000::/3)";
  }
  return undefined;
}

function deniedIPv4(address: ipaddr.IPv4): string | undefined {
  const { metadata, ipv4 } = tables();
  return find(address, metadata) ?? find(address, ipv4);
}

/**
 * Why the fetch tool must not connect to `address`, or `undefined` when it is a public
 * unicast address. Anything that is not exactly one IPv4 or IPv6 address is refused.
 *
 * @example
 * isDeniedAddress("127.0.0.1"); // "a loopback address"
 * isDeniedAddress("::ffff:169.254.169.254"); // "an IPv4-mapped form of a cloud metadata service ..."
 * isDeniedAddress("93.184.215.14"); // undefined
 */
export function isDeniedAddress(address: string): string | undefined {
  if (isIP(address) === 6 && address.includes("%")) return "an IPv6 address with a zone id";
  const parsed = parseAddress(address);
  if (parsed === undefined) return "not an IP address";
  const metadata = metadataReason(address);
  if (metadata !== undefined) return metadata;
  return parsed.kind() === "ipv4"
    ? deniedIPv4(parsed as ipaddr.IPv4)
    : deniedIPv6(parsed as ipaddr.IPv6);
}
