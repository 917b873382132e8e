import { parseFrontMatter } from "./front-matter.js";

/** Where a skill was found: the person's own directories, or the project's. */
export type SkillScope = "user" | "project";

/** One skill read from its `SKILL.md` (the open Agent Skills format). */
export interface Skill {
  /** `name` of the front matter: lowercase letters, digits and `-`, as its directory is named. */
  readonly name: string;
  /** `description` of the front matter: what the skill does and when to use it. */
  readonly description: string;
  /** `allowed-tools` of the front matter, when given (advisory: the tools keep their rules). */
  readonly allowedTools?: readonly string[];
  /** The Markdown after the front matter. */
  readonly body: string;
  /** The real path of the `SKILL.md` file. */
  readonly file: string;
  /** The skill's directory: its other files are beside `SKILL.md`. */
  readonly directory: string;
  readonly scope: SkillScope;
  /** SHA-256 of the file's bytes, hex: what trust is remembered by. */
  readonly sha256: string;
}

/** Why a `SKILL.md` was not used: the file, the field at fault and what is wrong. */
export interface SkillProblem {
  readonly file: string;
  /** The front matter field, or `front matter` / `file` when the file itself is wrong. */
  readonly field: string;
  readonly message: string;
}

/** A skill's name: 1 to 64 lowercase letters, digits and single hyphens. */
export const SKILL_NAME = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$/;

/** The longest `description` accepted, in characters (the format's limit). */
export const SKILL_DESCRIPTION_MAX = 1024;

/**
 * Parses the text of a `SKILL.md`: YAML front matter between `---` lines with `name` (equal
 * to its directory's name), `description` and optional `allowed-tools` (a list or a
 * space-separated string), then the Markdown body. Returns the skill or the problem,
 * naming the file and the field.
 *
 * @example
 * const parsed = parseSkillFile(text, { file, directory, scope: "user", sha256 });
 * if ("problem" in parsed) warn(`${parsed.problem.file}: ${parsed.problem.field}: ${parsed.problem.message}`);
 */
export function parseSkillFile(
  text: string,
  where: Pick<Skill, "file" | "directory" | "scope" | "sha256">,
): { skill: Skill } | { problem: SkillProblem } {
  const problem = (field: string, message: string) => ({
    problem: { file: where.file, field, message },
  });
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match)
    return problem(
      "front matter",
      "the file must start with YAML front matter between '---' lines",
    );
  let data: unknown;
  try {
    data = parseFrontMatter(match[1] ?? "");
  } catch (error) {
    return problem("front matter", `not valid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return problem("front matter", "must be a YAML mapping");
  }
  const fields = data as Record<string, unknown>;
  const { name, description } = fields;
  if (typeof name !== "string" || name.length === 0)
    return problem("name", "is required (a string)");
  if (!SKILL_NAME.test(name)) {
    return problem(
      "name",
      `'${name}' must be 1 to 64 lowercase letters, digits and single hyphens`,
    );
  }
  const folder = where.directory.split(/[\\/]/).at(-1);
  if (folder !== name) {
    return problem("name", `'${name}' must equal the skill's directory name '${folder}'`);
  }
  if (typeof description !== "string" || description.trim().length === 0) {
    return problem("description", "is required (a non-empty string)");
  }
  if (description.length > SKILL_DESCRIPTION_MAX) {
    return problem(
      "description",
      `has ${description.length} characters; at most ${SKILL_DESCRIPTION_MAX}`,
    );
  }
  const allowed = fields["allowed-tools"];
  let allowedTools: string[] | undefined;
  if (typeof allowed === "string") allowedTools = allowed.split(/[\s,]+/).filter(Boolean);
  else if (Array.isArray(allowed) && allowed.every((entry) => typeof entry === "string")) {
    allowedTools = allowed as string[];
  } else if (allowed !== undefined) {
    return problem("allowed-tools", "must be a list of tool names or a space-separated string");
  }
  return {
    skill: {
      name,
      description: description.replace(/\s+/g, " ").trim(),
      ...(allowedTools ? { allowedTools } : {}),
      body: text.slice(match[0].length).trim(),
      ...where,
    },
  };
}
