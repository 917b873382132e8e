import ipaddr from "ipaddr.js";

/**
 * Link-local and cloud metadata addresses: contacting one from the agent's machine can
 * hand out the cloud credentials of the host (AWS, GCP, Azure, Alibaba, OpenStack, …).
 * They are recognised in every spelling the C library and URL parsers accept: dotted,
 * decimal (`2852039166`), hex (`0xa9fea9fe`), octal (`0251.0376.0251.0376`), short
 * (`169.254.43518`), IPv4-mapped, -compatible and NAT64 IPv6, wildcard-DNS names that
 * embed the address (`169.254.169.254.nip.io`), and the metadata host names.
 */
type Range = readonly [ipaddr.IPv4 | ipaddr.IPv6, number];

const IPV4_RANGES: readonly (readonly [Range, string])[] = [
  [ipaddr.parseCIDR("169.254.0.0/16"), "a link-local address (cloud metadata services live here)"],
  [ipaddr.parseCIDR("100.100.100.200/32"), "the Alibaba Cloud metadata service"],
  [ipaddr.parseCIDR("168.63.129.16/32"), "the Azure WireServer"],
];

const IPV6_RANGES: readonly (readonly [Range, string])[] = [
  [ipaddr.parseCIDR("fe80::/10"), "a link-local IPv6 address"],
  [ipaddr.parseCIDR("fd00:ec2::254/128"), "the AWS metadata service (IPv6)"],
  [ipaddr.parseCIDR("fd20:ce::254/128"), "the GCP metadata service (IPv6)"],
];

/** Prefixes whose last 32 bits are an IPv4 address: mapped, compatible, NAT64. */
const EMBEDDING: readonly Range[] = [
  ipaddr.parseCIDR("::ffff:0:0/96"),
  ipaddr.parseCIDR("::/96"),
  ipaddr.parseCIDR("64:ff9b::/96"),
  ipaddr.parseCIDR("64:ff9b:1::/48"),
];

const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com",
  "metadata.packet.net",
]);

/** Wildcard DNS services whose names resolve to the address written in them. */
const WILDCARD_DNS = /\.(?:nip\.io|sslip\.io|xip\.io|nip\.direct|traefik\.me|localtest\.me)$/;

function inRanges(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: typeof IPV4_RANGES): string | null {
  for (const [[base, bits], why] of ranges) {
    if (base.kind() === address.kind() && address.match(base, bits)) return why;
  }
  return null;
}

function checkIPv6(text: string): string | null {
  let address: ipaddr.IPv6;
  try {
    address = ipaddr.IPv6.parse(
      new URL(`http://[${text.replace(/%.*$/, "")}]/`).hostname.slice(1, -1),
    );
  } catch {
    return null;
  }
  const direct = inRanges(address, IPV6_RANGES);
  if (direct !== null) return direct;
  for (const [base, bits] of EMBEDDING) {
    if (base.kind() === "ipv6" && address.match(base, bits)) {
      const embedded = new ipaddr.IPv4(address.toByteArray().slice(12));
      const why = inRanges(embedded, IPV4_RANGES);
      if (why !== null) return `${why}, written as IPv6`;
    }
  }
  return null;
}

function checkIPv4(text: string): string | null {
  let canonical: string;
  try {
    canonical = new URL(`http://${text}/`).hostname;
  } catch {
    return null;
  }
  if (!ipaddr.IPv4.isValidFourPartDecimal(canonical)) return null;
  return inRanges(ipaddr.IPv4.parse(canonical), IPV4_RANGES);
}

/**
 * Why `host` (a host name or address in any spelling, brackets, port and trailing dot
 * allowed) is a link-local or metadata address, or null.
 */
export function metadataHost(host: string): string | null {
  let text = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d*)?$/.exec(text);
  if (bracketed !== null) return checkIPv6(bracketed[1] ?? "");
  if ((text.match(/:/g) ?? []).length >= 2) return checkIPv6(text);
  text = text.replace(/:\d*$/, "").replace(/\.+$/, "");
  if (text === "") return null;
  if (METADATA_NAMES.has(text)) return `the cloud metadata host name ${text}`;
  if (
    /^[0-9a-fx.]+$/.test(text) &&
    /^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+)){0,3}$/.test(text)
  )
    return checkIPv4(text);
  if (WILDCARD_DNS.test(text)) {
    const dotted = /(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?=[.-])/.exec(text);
    const hex = /(?:^|[.-])([0-9a-f]{8})(?=\.)/.exec(text);
    const embedded =
      dotted !== null ? dotted.slice(1, 5).join(".") : hex !== null ? `0x${hex[1] ?? ""}` : null;
    const why = embedded === null ? null : checkIPv4(embedded);
    if (why !== null) return `${why}, behind a wildcard DNS name`;
  }
  return null;
}

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi;
const DEV_TCP = /\/dev\/(?:tcp|udp)\/([^/\s'"]+)\//g;
const GAWK_INET = /\/inet[46]?\/(?:tcp|udp)\/\d+\/([^/\s'"]+)\//g;
const BRACKETED = /\[([0-9a-fA-F:.%]+)\]/g;

function hostsOfUrls(text: string): string[] {
  const hosts: string[] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(/^[a-z][a-z0-9+.-]*:/i, "http:");
    try {
      hosts.push(new URL(url).host);
    } catch {
      // Not a URL after all: the token checks below still look at it.
    }
  }
  return hosts;
}

function hostsOf(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1] ?? "");
}

/** Host candidates in one argument of a program that contacts hosts (every token counts). */
function argumentHosts(text: string): string[] {
  const tokens = text.split(/[\s,;'"()<>|=@/\\]+/).flatMap((token) => {
    const pieces = token.split(":");
    // `host:port`, and `name:port:address` of `curl --resolve`; a whole IPv6 address too.
    return pieces.length === 2 ? [pieces[0] ?? ""] : [token, ...pieces];
  });
  return [
    ...hostsOfUrls(text),
    ...hostsOf(text, DEV_TCP),
    ...hostsOf(text, BRACKETED).map((inner) => `[${inner}]`),
    ...tokens,
  ];
}

/**
 * Why an argument of a program that contacts hosts (curl, ssh, nc, dig @server, …) names a
 * link-local or metadata address, or null. Every token counts: `--resolve x:80:ADDR`,
 * `user@ADDR`, `ADDR:80`, URLs, `/dev/tcp/ADDR/80`.
 */
export function metadataInArgument(text: string): string | null {
  if (text.length > 4096) return null;
  for (const host of argumentHosts(text)) {
    const why = metadataHost(host);
    if (why !== null) return why;
  }
  return null;
}

/** Dotted addresses in code, in any radix (`169.254.169.254`, `0xa9.0xfe.0xa9.0xfe`, `169.254.43518`). */
const DOTTED = /(?<![\w.])(?:0x[0-9a-f]+|\d+)(?:\.(?:0x[0-9a-f]+|\d+)){1,3}(?![\w.])/gi;

/**
 * Why code (a URL anywhere, interpreter code, a string of it) contacts a link-local or
 * metadata address, or null: URLs, `/dev/tcp`, gawk's `/inet/tcp`, bracketed IPv6, dotted
 * addresses, and `literals` (the code's string literals) taken whole as host names.
 */
export function metadataInCode(code: string, literals: readonly string[] = []): string | null {
  if (code.length > 65_536) return null;
  const hosts = [
    ...hostsOfUrls(code),
    ...hostsOf(code, DEV_TCP),
    ...hostsOf(code, GAWK_INET),
    ...hostsOf(code, BRACKETED).map((inner) => `[${inner}]`),
    ...(code.match(DOTTED) ?? []),
    ...literals.filter((literal) => literal.length <= 256 && literal.trim() !== "metadata"),
  ];
  for (const host of hosts) {
    const why = metadataHost(host);
    if (why !== null) return why;
  }
  return null;
}
