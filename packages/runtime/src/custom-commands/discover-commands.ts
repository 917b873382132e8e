import { readdirSync } from "node:fs";
import path from "node:path";
import type { SkillProblem } from "../skills/skill-file.js";
import { commandRoots, type SkillRoot } from "../skills/skill-roots.js";
import { openTrustStore } from "../skills/skill-trust.js";
import { readRootFile, realDirectory } from "../skills/read-root-file.js";
import { COMMAND_NAME_PART, parseCommandFile, type CustomCommand } from "./command-file.js";

/** The largest command file read: 64 KiB. */
export const COMMAND_FILE_MAX_BYTES = 64 * 1024;

/** Folders under a commands directory are read this deep (`a/b/c.md` is `/a:b:c`). */
const MAX_DEPTH = 3;

/** What {@link discoverCommands} found, split by trust. */
export interface CommandDiscovery {
  /** One command per name, the winner of shadowing, sorted by name. */
  readonly commands: readonly CustomCommand[];
  /** The commands that may run: the user's, and the project's a person trusted. */
  readonly offered: readonly CustomCommand[];
  /** Project commands nobody trusted in this content. */
  readonly untrusted: readonly CustomCommand[];
  readonly shadowed: readonly CustomCommand[];
  readonly problems: readonly SkillProblem[];
}

/**
 * Finds the custom commands: `*.md` under `~/.xzatoma/commands`, then under
 * `.xzatoma/commands` from the workspace up to the repository root; folders are namespaces
 * (`git/fix.md` is `/git:fix`). The first root holding a name wins, as for skills. Project
 * commands are offered only when a person trusted this content of them (the trust store
 * of `dataDir`). The files are read as text, never run.
 *
 * @example
 * const { offered } = discoverCommands({ workspace, homeDir: os.homedir(), dataDir });
 */
export function discoverCommands(options: {
  workspace: string;
  homeDir: string;
  dataDir: string;
  roots?: readonly SkillRoot[];
}): CommandDiscovery {
  const found = new Map<string, CustomCommand>();
  const shadowed: CustomCommand[] = [];
  const problems: SkillProblem[] = [];
  const add = (root: SkillRoot, confine: string | undefined, file: string, parts: string[]) => {
    const read = readRootFile(file, root, confine, {
      maxBytes: COMMAND_FILE_MAX_BYTES,
      outsideMessage: "leads outside the project directory",
    });
    if (read === undefined) return;
    if ("problem" in read) {
      problems.push(read.problem);
      return;
    }
    const { file: real, bytes, sha256 } = read;
    const bad = parts.find((part) => !COMMAND_NAME_PART.test(part));
    if (bad !== undefined) {
      problems.push({
        file: real,
        field: "name",
        message: `'${bad}' must be letters, digits, '-' and '_'`,
      });
      return;
    }
    const parsed = parseCommandFile(bytes.toString("utf8"), {
      name: parts.join(":"),
      file: real,
      scope: root.scope,
      sha256,
    });
    if ("problem" in parsed) problems.push(parsed.problem);
    else if (found.has(parsed.command.name)) shadowed.push(parsed.command);
    else found.set(parsed.command.name, parsed.command);
  };
  const walk = (
    root: SkillRoot,
    confine: string | undefined,
    directory: string,
    prefix: string[],
  ) => {
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".")) continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory() && prefix.length < MAX_DEPTH - 1) {
        walk(root, confine, full, [...prefix, entry.name]);
      } else if (!entry.isDirectory() && entry.name.endsWith(".md")) {
        add(root, confine, full, [...prefix, entry.name.slice(0, -3)]);
      }
    }
  };
  for (const root of options.roots ?? commandRoots(options)) {
    const directory = realDirectory(root.directory);
    if (!directory) continue;
    walk(root, root.confine ? realDirectory(root.confine) : undefined, directory, []);
  }
  const commands = [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
  const trust = openTrustStore(options.dataDir);
  const offered = commands.filter((c) => c.scope === "user" || trust.isTrusted(c));
  return {
    commands,
    offered,
    untrusted: commands.filter((c) => !offered.includes(c)),
    shadowed,
    problems,
  };
}
