/**
 * Reads a Markdown plan into the plain object the schemas validate. Two styles:
 * - sections named Goal / Context / Steps (or Instructions), with list items as instructions;
 * - the original's: `# Name`, a description line, then one `## Step` section per step whose
 *   text is the action and whose fenced code blocks are its context.
 */
const SECTION_NAMES = new Set(["goal", "context", "steps", "instructions", "tasks"]);

interface Section {
  readonly heading: string;
  readonly lines: string[];
}

function listItems(lines: readonly string[]): string[] {
  return lines
    .map((line) => /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line.trim())?.[1]?.trim())
    .filter((item): item is string => item !== undefined && item !== "");
}

function splitSections(markdown: string): {
  title: string | undefined;
  preamble: string[];
  sections: Section[];
} {
  let title: string | undefined;
  const preamble: string[] = [];
  const sections: Section[] = [];
  let fenced = false;
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("```")) fenced = !fenced;
    if (!fenced && /^# /.test(line) && title === undefined && sections.length === 0) {
      title = line.slice(2).trim();
      continue;
    }
    if (!fenced && /^## /.test(line)) {
      sections.push({ heading: line.slice(3).trim(), lines: [] });
      continue;
    }
    (sections.at(-1)?.lines ?? preamble).push(raw);
  }
  return { title, preamble, sections };
}

function stepFromSection(section: Section): { name: string; action: string; context?: string } {
  const action: string[] = [];
  const code: string[] = [];
  let fenced = false;
  for (const raw of section.lines) {
    const line = raw.trim();
    if (line.startsWith("```")) {
      fenced = !fenced;
      continue;
    }
    if (fenced) code.push(raw);
    else if (line !== "") action.push(line);
  }
  const context = code.join("\n").trimEnd();
  return {
    name: section.heading,
    action: action.join(" "),
    ...(context === "" ? {} : { context }),
  };
}

/** The plain object of a Markdown plan, before validation. */
export function readMarkdownPlan(markdown: string): Record<string, unknown> {
  const { title, preamble, sections } = splitSections(markdown);
  const name = title?.replace(/^task:\s*/i, "").trim() ?? "";
  const description = preamble.map((line) => line.trim()).find((line) => line !== "");
  const named = sections.filter((section) => SECTION_NAMES.has(section.heading.toLowerCase()));
  if (named.length > 0) {
    const find = (...names: string[]) =>
      named.find((section) => names.includes(section.heading.toLowerCase()));
    const goal =
      find("goal")
        ?.lines.map((line) => line.trim())
        .filter(Boolean)
        .join(" ") ??
      description ??
      name;
    const contextSection = find("context");
    return {
      name,
      goal,
      ...(description ? { description } : {}),
      ...(contextSection ? { context: listItems(contextSection.lines) } : {}),
      instructions: listItems(find("steps", "instructions", "tasks")?.lines ?? []),
    };
  }
  return { name, ...(description ? { description } : {}), steps: sections.map(stepFromSection) };
}
