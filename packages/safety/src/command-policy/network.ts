import type { Arg, ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import { CURL_OPTIONS, WGET_OPTIONS } from "./fetch-options.js";
import { metadataInArgument, metadataInCode } from "./metadata-hosts.js";
import { optionValues, parseOptions } from "./option-scan.js";
import { markDownloaded, requestPath } from "./path-arguments.js";

/** Programs that talk to the network; a command substitution in their arguments is exfiltration. */
export const NETWORK_PROGRAMS: ReadonlySet<string> = new Set([
  "curl",
  "wget",
  "ping",
  "ping6",
  "dig",
  "nslookup",
  "host",
  "whois",
  "traceroute",
  "tracepath",
  "ssh",
  "scp",
  "sftp",
  "ftp",
  "tftp",
  "aria2c",
  "http",
  "https",
  "xh",
  "lynx",
  "links",
  "rsync",
  "fetch",
  "xhs",
  "httpie",
  "mosh",
  "slogin",
  "lftp",
  "ncftpput",
  "smbclient",
  "wscat",
  "websocat",
  "grpcurl",
  "nmap",
  "ssh-keyscan",
  "drill",
  "kdig",
  "mtr",
  "arping",
  "mail",
  "mailx",
  "s-nail",
  "mutt",
  "neomutt",
  "sendmail",
  "msmtp",
  "ssmtp",
  "swaks",
  "rclone",
  "gsutil",
  "pastebinit",
]);

/** Programs that download. */
export const FETCHERS: ReadonlySet<string> = new Set([
  "curl",
  "wget",
  "fetch",
  "aria2c",
  "http",
  "https",
  "xh",
  "lynx",
]);

/** Programs whose output is downloaded or decoded text: piped into an interpreter, it is run unseen. */
export const FETCH_OR_DECODE: ReadonlySet<string> = new Set([
  "curl",
  "wget",
  "fetch",
  "aria2c",
  "http",
  "https",
  "xh",
  "lynx",
  "base64",
  "base32",
  "basenc",
  "xxd",
  "openssl",
  "gpg",
  "uudecode",
  "rev",
  "zcat",
  "gunzip",
  "gzip",
  "bzip2",
  "bunzip2",
  "xz",
  "unxz",
  "zstd",
]);

function checkCurl(args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), CURL_OPTIONS);
  for (const output of optionValues(parsed, "-o", "--output")) {
    markDownloaded(ctx, output.value);
    if (output.value !== "-") requestPath(ctx, output, "write", "curl -o");
  }
  const remote = ["-O", "--remote-name", "--remote-name-all"];
  if (parsed.options.some((option) => remote.includes(option.name))) {
    for (const url of parsed.operands) markDownloaded(ctx, remoteName(url.value));
  }
  for (const dir of optionValues(parsed, "--output-dir"))
    requestPath(ctx, dir, "write", "curl --output-dir");
  for (const file of optionValues(
    parsed,
    "-c",
    "--cookie-jar",
    "-D",
    "--dump-header",
    "--trace",
    "--trace-ascii",
    "--stderr",
  ))
    if (file.value !== "-") requestPath(ctx, file, "write", "curl");
}

/** The file name `curl -O` or `wget` saves a URL under. */
function remoteName(url: string): string {
  return url.split(/[?#]/)[0]?.split("/").pop() ?? "";
}

function checkWget(args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), WGET_OPTIONS);
  const named = optionValues(parsed, "-O", "--output-document").map((file) => file.value);
  const saved = named.length > 0 ? named : parsed.operands.map((url) => remoteName(url.value));
  for (const file of saved) markDownloaded(ctx, file);
  for (const output of optionValues(
    parsed,
    "-O",
    "--output-document",
    "-o",
    "--output-file",
    "-a",
    "--append-output",
    "-P",
    "--directory-prefix",
  )) {
    if (output.value !== "-") requestPath(ctx, output, "write", "wget");
  }
}

/**
 * Rules for network programs: data computed by command substitutions blocks (uploads of
 * local files are the exfiltration rules'), downloads are remembered, remote shells and
 * proxy commands are checked as scripts; everything else needs confirmation. Returns
 * whether `name` is one.
 */
export function checkNetwork(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  if (!NETWORK_PROGRAMS.has(name)) return false;
  const computed = args.slice(1).find((arg) => arg.substituted);
  if (computed !== undefined) {
    ctx.findings.block(
      refused(
        `${name} ${computed.raw}`,
        "sends data computed by a command substitution over the network (exfiltration)",
      ),
    );
  }
  if (name === "curl") checkCurl(args, ctx);
  if (name === "wget") checkWget(args, ctx);
  if (name === "ssh" || name === "scp" || name === "sftp" || name === "rsync")
    checkRemoteShell(name, args, ctx);
  ctx.findings.confirm(`\`${name}\` uses the network; it needs confirmation.`);
  return true;
}

function checkRemoteShell(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const values = args.slice(1);
  for (let i = 0; i < values.length; i++) {
    const arg = values[i];
    if (arg === undefined) continue;
    const next = values[i + 1];
    const option = /^-o(.*)$/.exec(arg.value);
    const setting = option === null ? null : option[1] !== "" ? option[1] : next?.value;
    if (
      setting !== undefined &&
      setting !== null &&
      /^(?:ProxyCommand|LocalCommand|KnownHostsCommand)[= ]/i.test(setting)
    ) {
      mergeNested(setting.replace(/^\w+[= ]\s*/, ""), ctx);
    }
    const rsh = /^(?:-e|--rsh=?)(.*)$/.exec(arg.value);
    if (name === "rsync" && rsh !== null)
      mergeNested(rsh[1] !== "" ? (rsh[1] ?? "") : (next?.value ?? ""), ctx);
  }
  if (name === "ssh") {
    const parsed = parseOptions(values, {
      shortValue: "BbcDEeFIiJLlmOopQRSWw",
      stopAtOperand: true,
    });
    const remote = parsed.operands
      .slice(1)
      .map((arg) => arg.value)
      .join(" ");
    if (remote !== "") mergeNested(remote, ctx);
  }
}

function mergeNested(script: string, ctx: ArgvContext): void {
  if (script.trim() === "") return;
  ctx.findings.merge(ctx.policy.nested(script, ctx.depth + 1, "literal", [], ctx.cwd), {
    blocksOnly: true,
  });
}

/** Programs that contact a host named in their arguments, besides {@link NETWORK_PROGRAMS}. */
const CONTACTS: ReadonlySet<string> = new Set([
  "nc",
  "ncat",
  "netcat",
  "socat",
  "telnet",
  "cryptcat",
  "pwncat",
  "git",
  "openssl",
  "redis-cli",
  "mysql",
  "psql",
  "mongo",
  "mongosh",
  "ldapsearch",
  "snmpget",
  "snmpwalk",
  "kubectl",
  "autossh",
  "sshuttle",
  "chisel",
  "ngrok",
  "cloudflared",
]);

/**
 * Blocks contact with link-local and cloud metadata addresses, in any spelling: in every
 * argument of a program that contacts hosts, and in any URL given to any program
 * (`pip install --index-url http://169.254.169.254/…`).
 */
export function checkMetadataContact(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const contacts = NETWORK_PROGRAMS.has(name) || CONTACTS.has(name);
  for (const arg of args.slice(1)) {
    const why = contacts
      ? metadataInArgument(arg.value)
      : arg.value.includes("://")
        ? metadataInCode(arg.value)
        : null;
    if (why !== null) {
      ctx.findings.block(
        refused(
          `${name} ${arg.raw}`,
          `contacts ${why}, where a cloud host hands out its credentials`,
        ),
      );
      return;
    }
  }
}
