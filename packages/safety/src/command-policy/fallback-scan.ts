import { isSubscriptCode } from "./arithmetic-injection.js";
import { scanEmbedded } from "./check-argv.js";
import { literalArg, NO_STDIN, type PolicyContext } from "./context.js";
import { refused } from "./denylist.js";
import type { Findings } from "./findings.js";

const PIPE_TO_SHELL =
  /\|&?\s*(?:(?:sudo|doas|env|command|exec|nohup|time)\s+(?:-\S+\s+)*)*(?:\S*\/)?(?:ba|da|z|k|mk|c|tc|fi|a|y)?sh\b/;
// The look-behind starts a name only where one begins: without it, a 40,000-letter word
// is tried from every position, each scanning to its end (quadratic; seconds).
const FORK_BOMB = /(?<![\w:.-])([\w:.-]+)\s*\(\s*\)\s*\{[^}]*?\1\s*\|\s*\1/;
/**
 * `${x@P}`, `${x@E}`, …: parameter transformations that evaluate or produce code; and
 * zsh's `${(e)x}`, which expands the value again, command substitutions included.
 */
const CODE_TRANSFORMATION = /\$\{[^{}]*@[PEAKkQa]\}|\$\{\([a-zA-Z@~%#=]*e[a-zA-Z@~%#=]*\)[^{}]*\}?/;
// eslint-disable-next-line no-control-regex -- control characters separate tokens here
const SEPARATORS = /[{}(),;|&<>`$\u0000-\u001f\u007f]/g;
const MAX_TOKENS = 20_000;

/**
 * A best-effort scan of text that could not be parsed (or hides text from the parser):
 * `/dev/tcp`, pipes into shells, fork bombs, and every token sequence that starts with a
 * known dangerous program checked as an argv. Only blocks are recorded; the caller has
 * already asked for confirmation.
 */
export function scanRawText(
  text: string,
  policy: PolicyContext,
  depth: number,
  findings: Findings,
): void {
  if (/\/dev\/(?:tcp|udp)\//.test(text))
    findings.block(
      refused("/dev/tcp", "opens a network connection (reverse shell or exfiltration)"),
    );
  const pipe = PIPE_TO_SHELL.exec(text);
  if (pipe !== null)
    findings.block(refused(pipe[0].trim(), "pipes text into a shell, which runs it unseen"));
  if (FORK_BOMB.test(text)) findings.block(refused(text.trim(), "is a fork bomb"));
  if (CODE_TRANSFORMATION.test(text))
    findings.block(
      refused(
        CODE_TRANSFORMATION.exec(text)?.[0] ?? text,
        "is a parameter transformation that evaluates or produces code",
      ),
    );
  if (isSubscriptCode(text))
    findings.block(
      refused(
        text.trim().slice(0, 80),
        "holds an array subscript that runs a command substitution, which bash runs when it evaluates the text as arithmetic",
      ),
    );
  const tokens = text
    .replace(/\$\{?HOME\}?|(?<![\w/])~(?=\/|\s|$)/g, policy.home)
    .replace(/\$\{?IFS\}?/g, " ")
    .replace(/[\\'"]/g, "")
    .replace(SEPARATORS, " ")
    .split(/\s+/)
    .filter((token) => token !== "")
    .slice(0, MAX_TOKENS);
  const context = {
    policy,
    findings,
    depth,
    stdin: NO_STDIN,
    wrappers: [],
    embedded: true,
    cwd: null,
    downloads: new Set<string>(),
  };
  scanEmbedded(tokens.map(literalArg), context, 0, tokens.length);
}
