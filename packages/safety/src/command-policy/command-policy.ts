import { homedir } from "node:os";
import { analyzeText } from "./analyze-text.js";
import type { PolicyContext } from "./context.js";
import { DEFAULT_ALLOWLIST } from "./default-allowlist.js";
import { Findings } from "./findings.js";
import { loadForbiddenRules } from "./forbidden-rules.js";
import { createBashParser } from "./parse-command.js";
import { checkPaths } from "./path-arguments.js";
import { lexPlainCommands } from "./strict-lexer.js";
import type {
  CommandCheckOptions,
  CommandDecision,
  CommandPolicy,
  CommandPolicyOptions,
  Escalation,
} from "./types.js";
import { parseUserDenylist } from "./user-denylist.js";
import { resolveStartDirectory } from "./working-directory.js";

const DEFAULT_MAX_SEGMENTS = 64;
const DEFAULT_PARSE_TIMEOUT_MS = 50;
/** Longer commands are not parsed: a person decides. */
const MAX_COMMAND_LENGTH = 32_768;
/** At most this many nested scripts (`bash -c`, `eval`) per command. */
const MAX_NESTED_SCRIPTS = 128;

/** The command policy itself; see {@link createCommandPolicy}, which loads this module. */
export async function buildCommandPolicy(options: CommandPolicyOptions): Promise<CommandPolicy> {
  const parser = await createBashParser();
  const forbiddenRules = loadForbiddenRules();
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
    forbiddenRules,
    parser,
    parseTimeoutMs: options.parseTimeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS,
    nested: (text, depth, positional, cwd) => {
      nestedScripts += 1;
      if (nestedScripts <= MAX_NESTED_SCRIPTS)
        return analyzeText(text, policy, depth, positional, cwd ?? null).findings;
      const findings = new Findings();
      findings.incomplete(
        `The command holds more than ${String(MAX_NESTED_SCRIPTS)} nested scripts, too many to analyse`,
      );
      return findings;
    },
  };

  function decision(findings: Findings): CommandDecision {
    const programs = [...findings.programs];
    const worst = findings.worst();
    if (worst === undefined) {
      const shown = programs.map((name) => `\`${name}\``).join(", ");
      return {
        outcome: "direct",
        reason: `${shown} ${programs.length === 1 ? "is a read-only program" : "are read-only programs"} and every argument is a plain word inside the workspace, so it runs without asking.`,
        programs,
        escalations: [],
      };
    }
    if (worst.severity === "forbidden")
      return { outcome: "forbidden", reason: worst.reason, programs, escalations: [] };
    if (worst.severity === "sandbox")
      return { outcome: "sandbox", reason: worst.reason, programs, escalations: [] };
    const escalations: Escalation[] = [];
    for (const item of findings.items)
      if (item.severity === "escalate" && item.kind !== undefined)
        if (!escalations.some((known) => known.reason === item.reason))
          escalations.push({ kind: item.kind, reason: item.reason });
    return { outcome: "escalate", reason: worst.reason, programs, escalations };
  }

  async function classify(command: string, options: CommandCheckOptions): Promise<CommandDecision> {
    const findings = new Findings();
    const start = await resolveStartDirectory(options.cwd, guard);
    if (start.problem !== null) findings.escalate("outside", start.problem);
    const cwd = start.path === guard.root ? null : start.path;
    if (command.includes("\0")) {
      findings.incomplete("The command contains a NUL byte, which truncates what programs see");
      return decision(findings);
    }
    if (command.trim() === "") {
      findings.confirm("The command is empty.");
      return decision(findings);
    }
    if (command.length > MAX_COMMAND_LENGTH) {
      findings.incomplete(
        `The command is longer than ${String(MAX_COMMAND_LENGTH)} characters, too long to analyse`,
      );
      return decision(findings);
    }
    nestedScripts = 0;
    const argvs: (readonly string[] | null)[] = [];
    const analysis = analyzeText(command, { ...policy, collect: argvs }, 0, [], cwd);
    findings.merge(analysis.findings);
    if (analysis.segments > maxSegments)
      findings.incomplete(
        `The command has ${String(analysis.segments)} simple commands, over the cap of ${String(maxSegments)}`,
      );
    await checkPaths(findings, guard);
    if (findings.items.length === 0) {
      const lexed = lexPlainCommands(command);
      if (lexed === null || JSON.stringify(lexed) !== JSON.stringify(argvs))
        findings.confirm(
          "The command is not provably plain words joined by `|`, `&&`, `||` or `;` (a second check reads it differently)",
        );
    }
    return decision(findings);
  }

  return {
    async check(command: string, options: CommandCheckOptions = {}): Promise<CommandDecision> {
      try {
        return await classify(String(command), options ?? {});
      } catch {
        return {
          outcome: "escalate",
          reason: "The command could not be analysed, so it fails closed; a person decides.",
          programs: [],
          escalations: [{ kind: "unanalysed", reason: "The command could not be analysed." }],
        };
      }
    },
  };
}
