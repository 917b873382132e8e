/**
 * The facts a summary must carry: the files changed, the person's decisions (the requests
 * the summary stands for) and the open steps of the plan in progress. A summary the model
 * wrote is checked for each; what it left out is added from the record, so a summary can
 * lose wording but never these facts.
 */

/** What a summary of pruned messages must mention. */
export interface SummaryFacts {
  /** Paths the file-changing tools named in the pruned messages. */
  readonly filesChanged: readonly string[];
  /** The person's requests among the pruned messages (excerpts): what they asked and decided. */
  readonly decisions: readonly string[];
  /** Steps of the plan not done yet, from the latest checklist a kept tool returned. */
  readonly openSteps: readonly string[];
}

/** The result of {@link completeSummary}. */
export interface CompletedSummary {
  /** The summary with whatever it missed added at its end. */
  readonly text: string;
  /** The facts the summary did not carry and that were added. */
  readonly added: SummaryFacts;
}

/**
 * The open steps of a checklist: lines `○ step` (XZatoma's plan progress) and Markdown task
 * items `- [ ] step`. Done steps (`✓`, `- [x]`) are left out.
 */
export function openStepsOf(text: string): string[] {
  const steps: string[] = [];
  for (const line of text.split("\n")) {
    const match = /^\s*(?:○|[-*] \[ \])\s+(.+?)\s*$/u.exec(line);
    if (match?.[1]) steps.push(match[1]);
  }
  return steps;
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ");
}

function words(text: string): string[] {
  return normalise(text)
    .split(/[^\p{L}\p{N}_./-]+/u)
    .filter((word) => word.length >= 4);
}

/**
 * Whether `summary` mentions `fact`: verbatim (ignoring case and spacing), or, for a fact of
 * several words, with at least two thirds of its words of four letters or more present.
 */
function mentions(summary: string, fact: string): boolean {
  const text = normalise(summary);
  if (text.includes(normalise(fact.trim()))) return true;
  const wanted = [...new Set(words(fact))];
  if (wanted.length < 3) return false;
  const present = new Set(words(summary));
  const found = wanted.filter((word) => present.has(word)).length;
  return found * 3 >= wanted.length * 2;
}

/** The facts among `facts` that `summary` does not mention. */
export function missingFacts(summary: string, facts: SummaryFacts): SummaryFacts {
  // A path counts only when written out: a changed file is named, not paraphrased.
  const named = (path: string) => summary.includes(path);
  return {
    filesChanged: facts.filesChanged.filter((path) => !named(path)),
    decisions: facts.decisions.filter((decision) => !mentions(summary, decision)),
    openSteps: facts.openSteps.filter((step) => !mentions(summary, step)),
  };
}

function isEmpty(facts: SummaryFacts): boolean {
  return facts.filesChanged.length + facts.decisions.length + facts.openSteps.length === 0;
}

/** Checks `summary` for `facts` and adds, from the record, each one it does not carry. */
export function completeSummary(summary: string, facts: SummaryFacts): CompletedSummary {
  const added = missingFacts(summary, facts);
  if (isEmpty(added)) return { text: summary, added };
  const lines = [summary.trimEnd(), "", "[Kept from the record: the summary above left these out]"];
  if (added.filesChanged.length > 0) lines.push(`Files changed: ${added.filesChanged.join(", ")}.`);
  if (added.decisions.length > 0)
    lines.push(
      "Requests of the person:",
      ...added.decisions.map((decision) => `- ${JSON.stringify(decision)}`),
    );
  if (added.openSteps.length > 0)
    lines.push("Open steps:", ...added.openSteps.map((step) => `- ${step}`));
  return { text: lines.join("\n"), added };
}
