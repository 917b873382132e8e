import { homedir } from "node:os";
import { DEFAULT_ALLOWLIST } from "./default-allowlist.js";
import { parseUserDenylist } from "./user-denylist.js";
import { analyzeText } from "./analyze-text.js";
import type { PolicyContext } from "./context.js";
import { refused } from "./denylist.js";
import { scanRawText } from "./fallback-scan.js";
import { Findings } from "./findings.js";
import { createBashParser } from "./parse-command.js";
import { checkPaths } from "./path-arguments.js";
import { lexPlainCommand } from "./strict-lexer.js";
import type {
  CommandCheckOptions,
  CommandDecision,
  CommandPolicy,
  CommandPolicyOptions,
} from "./types.js";
import { resolveStartDirectory } from "./working-directory.js";

const DEFAULT_MAX_SEGMENTS = 16;
const DEFAULT_PARSE_TIMEOUT_MS = 50;
/** Longer commands are not parsed: they need confirmation (after a raw scan for blocks). */
const MAX_COMMAND_LENGTH = 32_768;
/** At most this many nested scripts (`bash -c`, strings in interpreter code) per command. */
const MAX_NESTED_SCRIPTS = 128;

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, index) => word === b[index]);
}

/** The command policy itself; see {@link createCommandPolicy}, which loads this module. */
export async function buildCommandPolicy(options: CommandPolicyOptions): Promise<CommandPolicy> {
  const parser = await createBashParser();
  const guard = options.pathGuard;
  const maxSegments = options.maxSegments ?? DEFAULT_MAX_SEGMENTS;
  // Counts the nested scripts of the command being analysed; the analysis is synchronous,
  // so concurrent checks cannot interleave here.
  let nestedScripts = 0;
  const policy: PolicyContext = {
    root: guard.root,
    home: homedir(),
    allowlist: new Set(options.allowlist ?? DEFAULT_ALLOWLIST),
    userDenylist: parseUserDenylist(options.denylist ?? []),
    parser,
    parseTimeoutMs: options.parseTimeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS,
    nested: (text, depth, mode, positional, cwd) => {
      nestedScripts += 1;
      if (nestedScripts <= MAX_NESTED_SCRIPTS) {
        return analyzeText(text, policy, depth, mode === "literal", positional, cwd ?? null)
          .findings;
      }
      const findings = new Findings();
      findings.incomplete(
        `The command holds more than ${String(MAX_NESTED_SCRIPTS)} nested scripts; it needs confirmation.`,
      );
      return findings;
    },
  };

  function decision(findings: Findings): CommandDecision {
    const program = findings.programs[0] ?? "";
    const { verdict, reason } = findings.decide(
      `\`${program}\` is a read-only program on the allowlist and every argument is a plain word inside the workspace, so it runs without asking.`,
    );
    return {
      verdict,
      reason,
      programs: [...findings.programs],
      ...(findings.sensitive ? { readsSecrets: true } : {}),
      ...(findings.unanalysed && verdict !== "block" ? { unanalysed: true } : {}),
    };
  }

  async function classify(command: string, options: CommandCheckOptions): Promise<CommandDecision> {
    const findings = new Findings();
    const start = await resolveStartDirectory(options.cwd, guard);
    if (start.problem !== null) findings.incomplete(start.problem);
    const cwd = start.path === guard.root ? null : start.path;
    if (command.includes("\0")) {
      findings.block(refused("command", "contains a NUL byte, which truncates what programs see"));
      return decision(findings);
    }
    if (command.trim() === "") {
      findings.confirm("The command is empty; it needs confirmation.");
      return decision(findings);
    }
    if (command.length > MAX_COMMAND_LENGTH) {
      findings.incomplete(
        `The command is longer than ${String(MAX_COMMAND_LENGTH)} characters, too long to check; it needs confirmation.`,
      );
      scanRawText(command, policy, 0, findings);
      return decision(findings);
    }
    nestedScripts = 0;
    const analysis = analyzeText(command, policy, 0, false, [], cwd);
    findings.merge(analysis.findings);
    if (analysis.segments > maxSegments) {
      findings.confirm(
        `The command has ${String(analysis.segments)} simple commands, over the cap of ${String(maxSegments)}; it needs confirmation.`,
      );
    }
    await checkPaths(findings, guard);
    if (findings.items.length === 0 && start.problem === null) {
      const lexed = lexPlainCommand(command);
      if (analysis.argv === null || lexed === null || !sameWords(lexed, analysis.argv)) {
        findings.confirm(
          "The command is not provably one program with plain words (quoting or syntax a second check does not accept); it needs confirmation.",
        );
      }
    }
    return decision(findings);
  }

  return {
    async check(command: string, options: CommandCheckOptions = {}): Promise<CommandDecision> {
      try {
        return await classify(String(command), options ?? {});
      } catch {
        return {
          verdict: "confirm",
          reason: "The command could not be analysed, so it fails closed; it needs confirmation.",
          programs: [],
          unanalysed: true,
        };
      }
    },
  };
}
