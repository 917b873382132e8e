import { isSecretFileName } from "../protected-paths.js";
import type { Arg, ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import { optionValues, parseOptions, type ParsedArgs } from "./option-scan.js";
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

const CURL = {
  shortValue: "AbcCdDeEFHKmoPQrtTuUwxXyYz",
  longValue: [
    "data",
    "data-ascii",
    "data-binary",
    "data-raw",
    "data-urlencode",
    "json",
    "form",
    "form-string",
    "upload-file",
    "output",
    "config",
    "header",
    "request",
    "user",
    "proxy",
    "url",
    "write-out",
    "cookie",
    "cookie-jar",
    "referer",
    "user-agent",
    "max-time",
    "connect-timeout",
    "output-dir",
    "dump-header",
    "trace",
    "trace-ascii",
    "stderr",
    "continue-at",
    "range",
    "quote",
    "telnet-option",
    "time-cond",
  ],
};

const WGET = {
  shortValue: "OoaPieUtTwQDlABIXY",
  longValue: [
    "post-file",
    "body-file",
    "post-data",
    "body-data",
    "output-document",
    "output-file",
    "append-output",
    "directory-prefix",
    "input-file",
    "execute",
    "header",
    "method",
    "user",
    "password",
    "user-agent",
    "tries",
    "timeout",
    "wait",
    "quota",
    "domains",
    "level",
    "accept",
    "reject",
    "include-directories",
    "exclude-directories",
  ],
};

function uploads(parsed: ParsedArgs): { flag: string; value: Arg } | null {
  for (const option of parsed.options) {
    const value = option.value;
    if (value === null) continue;
    const flag = option.name;
    const text = value.value;
    if (
      ["-d", "--data", "--data-ascii", "--data-binary", "--json"].includes(flag) &&
      text.startsWith("@")
    )
      return { flag, value };
    if (flag === "--data-urlencode" && /^[^=]*@/.test(text)) return { flag, value };
    if (["-F", "--form"].includes(flag) && /=[@<]/.test(text)) return { flag, value };
    if (["-T", "--upload-file"].includes(flag)) return { flag, value };
  }
  return null;
}

function checkCurl(args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), CURL);
  const upload = uploads(parsed);
  if (upload !== null) {
    ctx.findings.block(
      refused(
        `curl ${upload.flag} ${upload.value.raw}`,
        "uploads a local file or standard input to a server (exfiltration)",
      ),
    );
  }
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
}

/** The file name `curl -O` or `wget` saves a URL under. */
function remoteName(url: string): string {
  return url.split(/[?#]/)[0]?.split("/").pop() ?? "";
}

function checkWget(args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), WGET);
  const named = optionValues(parsed, "-O", "--output-document").map((file) => file.value);
  const saved = named.length > 0 ? named : parsed.operands.map((url) => remoteName(url.value));
  for (const file of saved) markDownloaded(ctx, file);
  for (const option of parsed.options) {
    if (["--post-file", "--body-file"].includes(option.name)) {
      ctx.findings.block(
        refused(`wget ${option.name}`, "uploads a local file to a server (exfiltration)"),
      );
    }
  }
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
 * Rules for network programs: uploads of local files and data computed by command
 * substitutions block; everything else needs confirmation. Returns whether `name` is one.
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
  if (name === "scp" || name === "rsync") checkSecretUpload(name, args, ctx);
  if (name === "wget") checkWget(args, ctx);
  if (name === "ssh" || name === "scp" || name === "sftp" || name === "rsync")
    checkRemoteShell(name, args, ctx);
  ctx.findings.confirm(`\`${name}\` uses the network; it needs confirmation.`);
  return true;
}

/** `scp .env host:` and `rsync .env host:` upload a secret file. */
function checkSecretUpload(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const operands = args.slice(1).filter((arg) => !arg.value.startsWith("-"));
  const remote = operands.some((arg) => /^[^/]*:/.test(arg.value));
  const secret = operands.find((arg) => !/^[^/]*:/.test(arg.value) && isSecretFileName(arg.value));
  if (remote && secret !== undefined) {
    ctx.findings.block(
      refused(
        `${name} ${secret.raw}`,
        "uploads a file that holds secrets to another host (exfiltration)",
      ),
    );
  }
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
