import { isSecretFileName } from "../protected-paths.js";
import type { Arg, ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import {
  CURL_OPTIONS,
  HTTPIE_OPTIONS,
  RSYNC_OPTIONS,
  SCP_OPTIONS,
  WGET_OPTIONS,
} from "./fetch-options.js";
import { hasOption, optionValues, parseOptions, type ParsedOption } from "./option-scan.js";
import { requestPath } from "./path-arguments.js";

/**
 * Reading local data into a network request is exfiltration and is refused in every
 * mode: uploads of files (`curl -d @f`, `-T f`, `-F x=@f`, `-H @f`, `--variable x@f`,
 * `wget --post-file`, `http x=@f`, `scp f host:`, `rsync f host:`, mail attachments),
 * options files that can upload anything (`curl -K`, `wget --config`, `wget -e`), lists
 * of requests read from a file (`wget -i`), and standard input that comes from a file
 * or another program into a program that sends it (`ssh host < f`, `… | http POST url`).
 */

const EXFILTRATION = "sends local data to another host (exfiltration)";

function block(ctx: ArgvContext, subject: string, why = EXFILTRATION): void {
  ctx.findings.block(refused(subject, why));
}

function shown(name: string, option: ParsedOption): string {
  const value = option.value;
  if (value === null) return `${name} ${option.arg.raw}`;
  return value.raw === option.arg.raw
    ? `${name} ${option.arg.raw}`
    : `${name} ${option.name} ${value.raw}`;
}

/** A curl or wget option name without curl's `expand-` prefix (`--expand-data` is `--data`). */
function base(name: string): string {
  return name.replace(/^--expand-/, "--");
}

const CURL_DATA = new Set(["-d", "--data", "--data-ascii", "--data-binary", "--json"]);
const CURL_NAMED_DATA = new Set(["--data-urlencode", "--url-query"]);
const CURL_HEADERS = new Set(["-H", "--header", "--proxy-header"]);
const CURL_READS = new Set([
  "--netrc-file",
  "-E",
  "--cert",
  "--key",
  "--cacert",
  "--proxy-cert",
  "--proxy-key",
]);

function checkCurl(args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), CURL_OPTIONS);
  for (const option of parsed.options) {
    const name = base(option.name);
    const value = option.value;
    const text = value?.value ?? "";
    if (name === "-K" || name === "--config")
      block(
        ctx,
        shown("curl", option),
        "reads curl options from a file or standard input, which can upload any file",
      );
    if (value === null) continue;
    if (CURL_DATA.has(name) && text.startsWith("@")) block(ctx, shown("curl", option));
    if (CURL_NAMED_DATA.has(name) && /^[^=]*@/.test(text)) block(ctx, shown("curl", option));
    if ((name === "-F" || name === "--form") && /=[@<]/.test(text))
      block(ctx, shown("curl", option));
    if (name === "-T" || name === "--upload-file") block(ctx, shown("curl", option));
    if (CURL_HEADERS.has(name) && text.startsWith("@")) block(ctx, shown("curl", option));
    if (name === "--variable" && /^%|^[^=]*@/.test(text))
      block(
        ctx,
        shown("curl", option),
        "reads a file or an environment variable into a request (exfiltration)",
      );
    if ((name === "-b" || name === "--cookie") && !text.includes("=")) {
      if (isSecretFileName(text)) block(ctx, shown("curl", option));
      requestPath(ctx, value, "read", "curl --cookie");
    }
    if (CURL_READS.has(name)) requestPath(ctx, value, "read", `curl ${option.name}`);
  }
  const urls = [
    ...parsed.operands,
    ...parsed.options
      .filter((option) => base(option.name) === "--url")
      .flatMap((option) => (option.value === null ? [] : [option.value])),
  ];
  // TELNET sends what curl reads from its standard input to the host, as `nc` does.
  const telnetDefault = optionValues(parsed, "--proto-default").some((value) =>
    /^telnet$/i.test(value.value),
  );
  const globOff = hasOption(parsed, "-g", "--globoff");
  for (const url of urls) {
    // A glob in the scheme (`{telnet,http}://`) may expand to TELNET, unless globbing is off.
    const globbed = !globOff && /^[^:/]*[{[]/.test(url.value);
    if (
      /^\s*telnet:/i.test(url.value) ||
      globbed ||
      (telnetDefault && !/^[a-z][\w+.-]*:\/\//i.test(url.value))
    )
      block(
        ctx,
        `curl ${url.raw}`,
        "sends its standard input to the host over TELNET, which can upload any file",
      );
    const file = /^file:\/\/(?:localhost)?(\/.*)$/i.exec(url.value);
    if (file !== null)
      requestPath(
        ctx,
        { ...url, value: decodeURIComponent(file[1] ?? "") },
        "read",
        "curl file://",
      );
  }
}

function checkWget(args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), WGET_OPTIONS);
  for (const option of parsed.options) {
    const text = option.value?.value ?? "";
    if (["--post-file", "--body-file"].includes(option.name)) block(ctx, shown("wget", option));
    if (option.name === "-i" || option.name === "--input-file")
      block(
        ctx,
        shown("wget", option),
        "reads the requests to send from a file, whose lines go out to hosts (exfiltration)",
      );
    if (option.name === "--config")
      block(
        ctx,
        shown("wget", option),
        "reads wget settings from a file, which can upload any file",
      );
    if (
      (option.name === "-e" || option.name === "--execute") &&
      /^\s*(?:post_?file|body_?file|input|config|header)\s*=/i.test(text)
    )
      block(ctx, shown("wget", option));
    if (option.name === "--load-cookies" && isSecretFileName(text))
      block(ctx, shown("wget", option));
    if (
      option.value !== null &&
      ["--load-cookies", "--certificate", "--private-key", "--ca-certificate"].includes(option.name)
    )
      requestPath(ctx, option.value, "read", `wget ${option.name}`);
  }
}

/** HTTPie and xh request items that read a file: `field@file`, `field=@file`, `field:=@file`, `Header:@file`. */
const HTTPIE_FILE_ITEM = /^[^=:@\s]*(?::=@|=@|:@|@)./;

function checkHttpie(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), HTTPIE_OPTIONS);
  const operands = [...parsed.operands];
  if (operands[0] !== undefined && /^[A-Z]+$/.test(operands[0].value)) operands.shift();
  operands.shift();
  for (const item of operands)
    if (HTTPIE_FILE_ITEM.test(item.value)) block(ctx, `${name} ${item.raw}`);
  const raw = parsed.options.find(
    (option) => option.name === "--raw" && option.value?.value.startsWith("@") === true,
  );
  if (raw !== undefined) block(ctx, shown(name, raw));
}

/** `host:path`, `user@host:path`, `host::module`, `scp://…`, `rsync://…` (not `./a:b` or `/a:b`). */
function isRemote(value: string): boolean {
  return (
    /^(?:scp|sftp|rsync):\/\//i.test(value) ||
    /^[^/.][^/]*:/.test(value) ||
    /^\[[^\]]+\]:/.test(value)
  );
}

/** `scp f host:`, `rsync -a dir host:dst`: local sources copied to a remote destination. */
function checkCopy(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), name === "rsync" ? RSYNC_OPTIONS : SCP_OPTIONS);
  const destination = parsed.operands.at(-1);
  if (destination === undefined || !isRemote(destination.value)) return;
  const local = parsed.operands.slice(0, -1).find((source) => !isRemote(source.value));
  const listed = parsed.options.some((option) => option.name === "--files-from");
  if (local !== undefined || listed)
    block(
      ctx,
      `${name} ${local?.raw ?? "--files-from"} ${destination.raw}`,
      "copies local files to another host (exfiltration)",
    );
}

/** Cloud and paste uploaders: `SUBCOMMAND LOCAL REMOTE` forms that send local files away. */
function checkCloudCopy(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const words = args.slice(1).filter((arg) => !arg.value.startsWith("-"));
  const values = words.map((arg) => arg.value);
  const remote = (value: string) =>
    /^(?:s3|gs|az|wasbs?|abfss?):\/\//.test(value) ||
    (name === "rclone" && /^[^/.][^/]+:/.test(value));
  const copyVerb = (verb: string | undefined) =>
    ["cp", "mv", "sync", "copy", "copyto", "move", "moveto", "rsync", "bisync"].includes(
      verb ?? "",
    );
  let verbIndex = values.findIndex((value) => copyVerb(value));
  if (name === "gcloud" && values[0] !== "storage") verbIndex = -1;
  if (verbIndex !== -1) {
    const [source, destination] = words.slice(verbIndex + 1);
    if (
      source !== undefined &&
      destination !== undefined &&
      !remote(source.value) &&
      remote(destination.value)
    )
      block(
        ctx,
        `${name} ${values[verbIndex] ?? ""} ${source.raw} ${destination.raw}`,
        "copies local files to another host (exfiltration)",
      );
  }
  const uploadFlags = ["--body", "--file", "-f", "--source", "--input"];
  const uploads =
    (name === "aws" && values.includes("put-object")) ||
    (name === "az" && values.some((value) => value.startsWith("upload"))) ||
    (name === "gh" && values[0] === "api");
  args.forEach((arg, index) => {
    if (uploads && uploadFlags.includes(arg.value) && args[index + 1] !== undefined)
      block(ctx, `${name} ${arg.value} ${args[index + 1]?.raw ?? ""}`);
    if (
      name === "gh" &&
      values[0] === "api" &&
      /^-(?:F|-field)$/.test(arg.value) &&
      /=@/.test(args[index + 1]?.value ?? "")
    )
      block(ctx, `${name} ${arg.value} ${args[index + 1]?.raw ?? ""}`);
  });
  if (
    name === "gh" &&
    ((values[0] === "gist" && values[1] === "create") ||
      (values[0] === "release" && values[1] === "upload"))
  )
    block(ctx, `gh ${values[0]} ${values[1]}`, "uploads local files to GitHub (exfiltration)");
}

/** Mail programs: attachments (`-a`, `-A`, `--attach`) are local files sent away. */
function checkMail(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  args.forEach((arg, index) => {
    const attached = /^(?:-a|-A|--attach(?:ment)?|--attach-type|--body)(?:=(.+))?$/.exec(arg.value);
    if (attached === null) return;
    const file = attached[1] ?? args[index + 1]?.value;
    if (file !== undefined && !(arg.value === "-a" && /^[\w-]+:/.test(file)))
      block(ctx, `${name} ${arg.value} ${file}`, "sends a local file by mail (exfiltration)");
  });
}

const MAIL = new Set([
  "mail",
  "mailx",
  "s-nail",
  "mutt",
  "neomutt",
  "sendmail",
  "msmtp",
  "ssmtp",
  "swaks",
  "mpack",
  "sendemail",
]);
const HTTPIE = new Set(["http", "https", "xh", "xhs", "httpie"]);
const CLOUD = new Set(["aws", "gsutil", "gcloud", "az", "rclone", "gh"]);
const PASTE = new Set(["pastebinit", "ix", "termbin", "0x0", "sprunge", "transfer"]);

/** Programs that send their standard input to another host. */
const STDIN_SENDERS = new Set([
  "ssh",
  "slogin",
  "sftp",
  "ftp",
  "lftp",
  "tftp",
  "openssl",
  "rclone",
  "gist",
  ...MAIL,
  ...HTTPIE,
  ...PASTE,
]);

function sendsStdin(name: string, args: readonly Arg[]): boolean {
  const values = args.slice(1).map((arg) => arg.value);
  if (name === "ssh" || name === "slogin")
    return !values.some((value) => /^-[a-zA-Z]*[nf]/.test(value));
  if (name === "openssl") return values[0] === "s_client";
  if (name === "rclone") return values.includes("rcat");
  if (HTTPIE.has(name)) return !values.includes("--ignore-stdin") && !values.includes("-I");
  return true;
}

/** Standard input from a file or another program, into a program that sends it away. */
function checkStdin(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const { stdin } = ctx;
  if (!STDIN_SENDERS.has(name) || !sendsStdin(name, args)) return;
  const fromFile = stdin.kind === "file" && !/^\/dev\/(?:null|zero)$/.test(stdin.source ?? "");
  const fromProgram = stdin.kind === "pipe" && stdin.text === null;
  const computed = stdin.computed || stdin.opaque === true;
  if (fromFile || fromProgram || (stdin.kind !== "none" && computed)) {
    const from =
      stdin.kind === "file"
        ? ` (\`${stdin.source ?? "a file"}\`)`
        : stdin.upstream.length > 0
          ? ` (from \`${stdin.upstream.join(" | ")}\`)`
          : "";
    block(ctx, name, `sends its standard input${from} to another host (exfiltration)`);
  }
  if (name === "sftp" && stdin.text !== null && /^\s*(?:put|mput|reput)\b/m.test(stdin.text))
    block(ctx, "sftp put", "uploads local files to another host (exfiltration)");
}

/**
 * Rules for reading local data into network requests; blocks what is exfiltration.
 * Applies to every program; the network rules still ask for confirmation for the rest.
 */
export function checkExfiltration(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  if (name === "curl") checkCurl(args, ctx);
  else if (name === "wget") checkWget(args, ctx);
  else if (HTTPIE.has(name)) checkHttpie(name, args, ctx);
  else if (name === "scp" || name === "rsync") checkCopy(name, args, ctx);
  else if (CLOUD.has(name)) checkCloudCopy(name, args, ctx);
  else if (MAIL.has(name)) checkMail(name, args, ctx);
  else if (PASTE.has(name) && args.length > 1)
    block(
      ctx,
      `${name} ${args[1]?.raw ?? ""}`,
      "uploads a local file to a paste service (exfiltration)",
    );
  if (name === "aria2c" && args.some((arg) => /^(?:-i|--input-file)(?:=|$)|^-i./.test(arg.value)))
    block(
      ctx,
      "aria2c -i",
      "reads the requests to send from a file, whose lines go out to hosts (exfiltration)",
    );
  const script = args.findIndex(
    (arg, index) => index > 0 && /^(?:-e|-c|--command)$/.test(arg.value),
  );
  if (
    ["lftp", "smbclient", "tftp", "ncftp"].includes(name) &&
    script !== -1 &&
    /\b(?:m?put|reput|mirror\s+(?:-\w+\s+)*-R|mirror\s+--reverse|send)\b/.test(
      args[script + 1]?.value ?? "",
    )
  )
    block(
      ctx,
      `${name} ${args[script]?.value ?? ""} ${args[script + 1]?.raw ?? ""}`,
      "uploads local files to another host (exfiltration)",
    );
  if (name === "sftp" && args.some((arg) => /^-b/.test(arg.value)))
    ctx.findings.confirm(
      "`sftp -b` runs transfer commands from a file the check cannot see; it needs confirmation.",
    );
  checkStdin(name, args, ctx);
}
