// The pure text side of edit_file: search/replace with a uniqueness check, append, and
// the safety check against edits that would wipe most of a file.

/** What edit_file does to a file. */
export type EditMode = "edit" | "create" | "overwrite" | "append";

/** The new text of a file, or why there is none. */
export type EditPlan =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/** An edit may not cut a file of at least this many lines to under a third of them. */
export const SAFETY_MIN_LINES = 20;

/** Lines of a text; a final newline does not start another line. */
export function lineCount(text: string): number {
  if (text === "") return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}

/** Non-overlapping occurrences of `needle` in `haystack` (needle not empty). */
export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (
    let index = haystack.indexOf(needle);
    index >= 0;
    index = haystack.indexOf(needle, index + needle.length)
  ) {
    count++;
  }
  return count;
}

/** The message when an edit would shrink a file drastically, else undefined. */
export function shrinkCheck(oldText: string, newText: string, path: string): string | undefined {
  const before = lineCount(oldText);
  const after = lineCount(newText);
  if (before < SAFETY_MIN_LINES || after >= Math.floor(before / 3)) return undefined;
  return (
    `Safety check failed: this edit would reduce '${path}' from ${before} lines to ${after} lines. ` +
    `Replace a smaller, unique old_text, or use mode 'overwrite' if you mean to rewrite the whole file.`
  );
}

/** Replaces the one occurrence of `oldText` in `text` with `content`. */
export function replaceUnique(
  text: string,
  oldText: string | undefined,
  content: string,
  path: string,
): EditPlan {
  if (oldText === undefined || oldText === "") {
    return {
      ok: false,
      message:
        "edit mode requires old_text: the exact text to replace, copied from the file (read it with read_file first). " +
        "To replace the whole file use mode 'overwrite'; to add to the end use mode 'append'.",
    };
  }
  let search = oldText;
  let replacement = content;
  let count = countOccurrences(text, search);
  if (count === 0 && text.includes("\r\n") && !oldText.includes("\r\n")) {
    // The file has Windows line endings the model did not copy: match them for it.
    search = oldText.replaceAll("\n", "\r\n");
    replacement = content.replaceAll(/\r?\n/g, "\r\n");
    count = countOccurrences(text, search);
  }
  if (count === 0) {
    return {
      ok: false,
      message:
        `The old_text was not found in '${path}'.\nSearched for:\n${oldText}\n` +
        "Read the file with read_file and copy the text exactly, including whitespace and indentation.",
    };
  }
  if (count > 1) {
    return {
      ok: false,
      message:
        `The old_text matches ${count} places in '${path}'; it must match exactly one.\nSearched for:\n${oldText}\n` +
        "Include more surrounding lines in old_text so that it matches only the place you mean.",
    };
  }
  const index = text.indexOf(search);
  return { ok: true, text: text.slice(0, index) + replacement + text.slice(index + search.length) };
}

/** Appends `content`, on a new line when the file does not end with one. */
export function appendText(text: string, content: string): string {
  return text === "" || text.endsWith("\n") ? text + content : `${text}\n${content}`;
}
