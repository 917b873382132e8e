import type { Tool, ToolPackageContext } from "@xzatoma/core";
import { createNotesDirectory } from "./notes-directory.js";
import { createSaveNoteTool } from "./save-note.js";
import { createSearchNotesTool } from "./search-notes.js";

/**
 * The tool-package entry point XZatoma calls: `options.directory` (default `notes`) is the
 * notes directory inside the workspace; `options.allowOverwrite` (default false) lets
 * `save_note` replace a note after a person's yes.
 */
export function createTools(context: ToolPackageContext): Tool[] {
  const directory =
    typeof context.options["directory"] === "string" ? context.options["directory"] : "notes";
  const notes = createNotesDirectory(context.root, directory);
  const allowOverwrite = context.options["allowOverwrite"] === true;
  return [createSearchNotesTool(notes), createSaveNoteTool(notes, { allowOverwrite })];
}
