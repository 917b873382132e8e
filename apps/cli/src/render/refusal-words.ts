/**
 * The person-facing words for a refused tool call. The tool result a refusal produces is
 * written for the model ("The call to 'x' was not approved: ... Do not retry it; continue
 * another way ..."); the person sees why it did not run, addressed to them, without the
 * instructions to the model.
 *
 * @example
 * describeRefusal("The call to 'write_file' was not approved (the user rejected it). Do not retry it; continue another way or explain what you need.")
 * // "not run: you refused it"
 */
export function describeRefusal(error: string): string {
  const text = error.trim();
  const notApproved =
    /^The call to '[^']*' was not approved(?:: (.*?)| \((.*?)\)\.) Do not retry it; continue another way or explain what you need\.$/s.exec(
      text,
    );
  if (notApproved) {
    const reason = (notApproved[1] ?? notApproved[2] ?? "").trim();
    return `not run: ${personal(reason)}`;
  }
  const blocked =
    /^Refused: (.*?) (?:This call will not run in any mode; do not retry it\.|The edited call will not run\.)$/s.exec(
      text,
    );
  if (blocked) return `blocked: ${personal(blocked[1] ?? "")}`;
  const editedPerson =
    /^Refused: only a person's explicit yes can allow the edited call: (.*)$/s.exec(text);
  if (editedPerson)
    return `not run: the edited call needs a person's yes: ${personal(editedPerson[1] ?? "")}`;
  const firstLine = text.split("\n")[0] ?? "";
  return firstLine === "" ? "not run" : firstLine;
}

/** Rewords a reason that speaks of "the user" or tells the model what to do next. */
function personal(reason: string): string {
  const known: Record<string, string> = {
    "the user rejected it": "you refused it",
    "the user cancelled the turn": "you cancelled the turn before it was asked",
    "edited by the user": "you edited it",
  };
  const bare = reason.replace(/[.\s]+$/, "");
  if (known[bare] !== undefined) return known[bare];
  return (
    bare
      // Advice meant for the model after the reason.
      .replace(/;\s*(?:do it another way|continue another way)[^.]*$/i, "")
      .replace(/\s*Do not retry it[^.]*\.?$/i, "")
      .replace(/\bthe user\b/g, "you")
      .replace(/^\w/, (first) => first.toLowerCase())
  );
}
