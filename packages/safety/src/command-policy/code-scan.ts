import { checkCodeEffects } from "./code-effects.js";
import type { ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import { metadataInCode } from "./metadata-hosts.js";

const LOOP =
  /(?:\b|(?<=\\[nt]))(?:while|for|loop|until|each|repeat|times|redo|goto|setInterval|setImmediate)\b/;
const ENDLESS =
  /while\s*\(\s*(?:true|1|!0|!false|True)\s*\)|while\s+(?:True|1|not\s+False)\s*:|\bwhile\s+(?:true|1)\b|for\s*\(\s*;\s*;\s*\)|\bloop\s*(?:do|\{)|\buntil\s+false\b|\b1\s+while\b|\bredo\b|setInterval\s*\(|itertools\.count\(|iter\(\s*int\s*,\s*1\s*\)/;
/** Calls that start a process and do not wait for it. */
const SPAWNS =
  /\b(?:spawn(?!Sync)|Popen|detached|popen|spawn[lv]p?e?|posix_spawnp?|proc_open|start_new_session)\b|\bProcess\.spawn\b|\bProcess\s*\([^)]*\)\s*\.start\(|\b(?:system|exec\w*)\s*\([^)]*&\s*['"]/;
/** `fork` as a call or a name in any language: `os.fork()`, `pcntl_fork()`, `forkpty`, `fork while 1`. */
const FORK = /(?<![A-Za-z])fork(?:pty)?(?![A-Za-z])/g;
const EXECUTES =
  /\b(?:exec|eval|system|popen|spawn|spawnSync|execSync|execFile|execFileSync|Function|compile|instance_eval|class_eval|passthru|shell_exec|proc_open|subprocess|Popen|call|check_output|run)\b/;
const DECODES =
  /b64decode|decode_base64|decodebytes|\bbase64\b|\batob\b|fromCharCode|unhexlify|fromhex|decode\(\s*['"](?:hex|rot13|rot_13|base64)|zlib|marshal\.loads|pickle\.loads|Buffer\.from\([^)]*['"](?:base64|hex)['"]|str_rot13|gzinflate|pack\(\s*['"]H/i;
const DOWNLOADS =
  /urlopen|urllib|requests\.(?:get|post)|https?\.get|\bfetch\(|LWP|Net::HTTP|open-uri|URI\.open|\bcurl\b|\bwget\b|file_get_contents\(\s*['"]https?:|Invoke-WebRequest|DownloadString|\biwr\b/i;
const REVERSE_SHELL =
  /dup2|pty\.spawn|\/bin\/(?:ba|z|da|k)?sh\b|subprocess|child_process|\bexec\b|spawn|fdopen/;

/** String literals of interpreter code ('…', "…", `…`), escapes undone; at most `limit`. */
export function stringLiterals(code: string, limit = 32): string[] {
  const literals: string[] = [];
  const pattern = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/gs;
  // Consecutive literals separated by commas are an argv list (`['rm', '-rf', '/']`): joined too.
  let list: string[] = [];
  let listEnd = -1;
  for (
    let match = pattern.exec(code);
    match !== null && literals.length < limit;
    match = pattern.exec(code)
  ) {
    const body = (match[1] ?? match[2] ?? match[3] ?? "").replace(/\\(.)/gs, "$1");
    literals.push(body);
    const continues = listEnd >= 0 && /^\s*,\s*$/.test(code.slice(listEnd, match.index));
    list = continues ? [...list, body] : [body];
    listEnd = match.index + match[0].length;
    if (list.length > 1) literals.push(list.join(" "));
  }
  return literals;
}

/**
 * Scans code an interpreter runs (`python -c`, `node -e`, `perl -e`, awk programs) for what
 * a command denylist cannot see: fork loops, decode-and-exec, download-and-exec, reverse
 * shells, `/dev/tcp`, and shell commands in its string literals (checked recursively).
 * Benign-looking code still needs confirmation; that is the caller's.
 */
export function scanCode(code: string, label: string, ctx: ArgvContext): void {
  const block = (why: string) => ctx.findings.block(refused(label, why));
  if (/\/dev\/(?:tcp|udp)\//.test(code))
    block("opens a network connection through /dev/tcp (reverse shell)");
  const forks = code.match(FORK)?.length ?? 0;
  if (forks >= 2 || (forks === 1 && (LOOP.test(code) || ENDLESS.test(code)))) {
    block("forks processes in a loop (a fork bomb)");
  } else if (ENDLESS.test(code) && (SPAWNS.test(code) || /\bexec\b/.test(code))) {
    block("starts processes in an endless loop (a fork bomb)");
  }
  if (EXECUTES.test(code) && DECODES.test(code)) block("runs decoded, hidden code");
  if (EXECUTES.test(code) && DOWNLOADS.test(code)) block("downloads and runs code");
  if (/\bsocket\b/i.test(code) && /connect/i.test(code) && REVERSE_SHELL.test(code)) {
    block("connects a socket to a shell (reverse shell)");
  }
  const literals = stringLiterals(code);
  checkCodeEffects(code, literals, label, ctx);
  const metadata = metadataInCode(code, literals);
  if (metadata !== null)
    block(`contacts ${metadata}, where a cloud host hands out its credentials`);
  for (const literal of literals) {
    if (!/\s/.test(literal.trim())) continue;
    ctx.findings.merge(ctx.policy.nested(literal, ctx.depth + 1, "literal", [], ctx.cwd), {
      blocksOnly: true,
    });
  }
}
