import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import type { z } from "zod";
import { UsageError } from "../usage-error.js";
import { evalSuiteSchema, type EvalSuite } from "./suite-schema.js";

/**
 * A suite file that cannot be used: `xzatoma eval` exits 2 with this message, which names
 * the file, the case (by id, else by position) and the field.
 */
export class SuiteInvalidError extends UsageError {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`${file}: not a valid eval suite:\n${problems.map((line) => `  ${line}`).join("\n")}`);
  }
}

/** `cases[2].expect.files` as a dotted path. */
function dotted(segments: readonly PropertyKey[]): string {
  return segments
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`,
    )
    .join("");
}

/** One problem, as a person reads it: the case's id and the field inside it. */
function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const [first, position, ...rest] = issue.path;
  if (first === "cases" && typeof position === "number") {
    const cases = (raw as { cases?: unknown[] }).cases;
    const id = (cases?.[position] as { id?: unknown } | undefined)?.id;
    const label = typeof id === "string" ? `case '${id}'` : `case #${position + 1}`;
    const field = rest.length > 0 ? dotted(rest) : "(the case)";
    return `${label}, field ${field}: ${issue.message}`;
  }
  return `field ${issue.path.length > 0 ? dotted(issue.path) : "(the suite)"}: ${issue.message}`;
}

/** Checks a parsed suite document; throws {@link SuiteInvalidError} naming each problem. */
export function parseSuite(document: unknown, file: string): EvalSuite {
  const parsed = evalSuiteSchema.safeParse(document);
  if (!parsed.success)
    throw new SuiteInvalidError(
      file,
      parsed.error.issues.map((issue) => describeIssue(issue, document)),
    );
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const evalCase of parsed.data.cases) {
    if (seen.has(evalCase.id))
      duplicates.push(`case '${evalCase.id}', field id: is used by an earlier case`);
    seen.add(evalCase.id);
  }
  if (duplicates.length > 0) throw new SuiteInvalidError(file, duplicates);
  return parsed.data;
}

/** Reads and checks a suite file (YAML or JSON). */
export async function loadSuite(file: string): Promise<EvalSuite> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(
      `${file}: cannot read the suite: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
    );
  }
  let document: unknown;
  try {
    document = parse(text, { prettyErrors: true });
  } catch (error) {
    throw new SuiteInvalidError(file, [`not YAML: ${(error as Error).message.split("\n")[0]}`]);
  }
  return parseSuite(document, file);
}
