import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { defineTool, toolFailure, toolSuccess, type Tool } from "@xzatoma/core";
import type { PathGuard } from "@xzatoma/safety";
import { z } from "zod";
import { noteFileName } from "./notes-directory.js";

/** `save_note(title, body)`: writes a Markdown note; overwriting needs `allowOverwrite` and a person's yes. */
export function createSaveNoteTool(notes: PathGuard, options: { allowOverwrite: boolean }): Tool {
  return defineTool({
    name: "save_note",
    description:
      "Save a note with a title and a Markdown body in the notes directory. Saving over an existing note with the same title is refused unless the user allows overwriting.",
    inputSchema: z
      .object({
        title: z.string().trim().min(1).max(200).describe("The note's title"),
        body: z.string().max(100_000).describe("The note's text, in Markdown"),
      })
      .strict(),
    access: "write",
    assess({ title }) {
      const exists = existsSync(`${notes.root}/${noteFileName(title)}`);
      if (!exists) return { verdict: "allow", reason: `creates the note '${title}'.` };
      return options.allowOverwrite
        ? {
            verdict: "confirm",
            reason: `overwrites the existing note '${title}'.`,
            summary: `overwrite ${noteFileName(title)}`,
          }
        : {
            verdict: "block",
            reason: `a note titled '${title}' exists and overwriting notes is turned off; choose another title.`,
          };
    },
    async execute({ title, body }) {
      const file = await notes.resolveForWrite(noteFileName(title));
      if (!options.allowOverwrite && existsSync(file)) {
        return toolFailure(`A note titled '${title}' already exists; choose another title.`);
      }
      await writeFile(file, `# ${title}\n\n${body.trimEnd()}\n`);
      return toolSuccess(`Saved note '${title}' as ${notes.relative(file)}.`, {
        file: notes.relative(file),
      });
    },
  });
}
