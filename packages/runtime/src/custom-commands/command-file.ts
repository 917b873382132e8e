import { parseFrontMatter } from "../skills/front-matter.js";
import type { SkillProblem, SkillScope } from "../skills/skill-file.js";

/** A custom command: a Markdown prompt file run as `/name args`. */
export interface CustomCommand {
  /** `a:b` for `a/b.md` under a commands directory. */
  readonly name: string;
  /** `description` of the front matter, or the first line of the prompt. */
  readonly description: string;
  /** `model` of the front matter, when given. */
  readonly model?: string;
  /** `allowed-tools` of the front matter (advisory: the tools keep their rules). */
  readonly allowedTools?: readonly string[];
  /** The prompt template: `$ARGUMENTS` and `$1` to `$9` are replaced. */
  readonly template: string;
  /** The real path of the file. */
  readonly file: string;
  readonly scope: SkillScope;
  /** SHA-256 of the file's bytes, hex: what trust is remembered by. */
  readonly sha256: string;
}

/** A command name part: letters, digits, `-` and `_`. */
export const COMMAND_NAME_PART = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Parses a command file: optional YAML front matter (`description`, `model`,
 * `allowed-tools`) then the prompt template. Returns the command or the problem, naming the
 * file and the field.
 *
 * @example
 * const parsed = parseCommandFile(text, { name: "git:fix", file, scope: "user", sha256 });
 */
export function parseCommandFile(
  text: string,
  where: Pick<CustomCommand, "name" | "file" | "scope" | "sha256">,
): { command: CustomCommand } | { problem: SkillProblem } {
  const problem = (field: string, message: string) => ({
    problem: { file: where.file, field, message },
  });
  let fields: Record<string, unknown> = {};
  let template = text.replace(/^\uFEFF/, "");
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(template);
  if (match) {
    let data: unknown;
    try {
      data = parseFrontMatter(match[1] ?? "");
    } catch (error) {
      return problem("front matter", `not valid YAML: ${(error as Error).message.split("\n")[0]}`);
    }
    if (data !== null && (typeof data !== "object" || Array.isArray(data))) {
      return problem("front matter", "must be a YAML mapping");
    }
    fields = (data ?? {}) as Record<string, unknown>;
    template = template.slice(match[0].length);
  }
  template = template.trim();
  if (template.length === 0) return problem("file", "has no prompt after the front matter");
  const { description, model } = fields;
  if (description !== undefined && typeof description !== "string") {
    return problem("description", "must be a string");
  }
  if (model !== undefined && (typeof model !== "string" || model.length === 0)) {
    return problem("model", "must be a model name");
  }
  const allowed = fields["allowed-tools"];
  let allowedTools: string[] | undefined;
  if (typeof allowed === "string") allowedTools = allowed.split(/[\s,]+/).filter(Boolean);
  else if (Array.isArray(allowed) && allowed.every((entry) => typeof entry === "string")) {
    allowedTools = allowed as string[];
  } else if (allowed !== undefined) {
    return problem("allowed-tools", "must be a list of tool names or a space-separated string");
  }
  const firstLine = template.split("\n")[0]?.replace(/^#+\s*/, "") ?? "";
  return {
    command: {
      ...where,
      description: (description ?? firstLine).replace(/\s+/g, " ").trim().slice(0, 200),
      ...(typeof model === "string" ? { model } : {}),
      ...(allowedTools ? { allowedTools } : {}),
      template,
    },
  };
}
