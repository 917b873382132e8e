import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { defineTool, toolSuccess, type Tool } from "@xzatoma/core";
import type { PathGuard } from "@xzatoma/safety";
import { z } from "zod";

/** `search_notes(query, limit)`: notes whose title or body contains every word of the query. */
export function createSearchNotesTool(notes: PathGuard): Tool {
  return defineTool({
    name: "search_notes",
    description: "Search the saved notes for words; returns matching notes with their first lines.",
    inputSchema: z
      .object({
        query: z.string().trim().min(1).describe("Words to look for"),
        limit: z.number().int().min(1).max(50).default(5).describe("Most notes to return"),
      })
      .strict(),
    access: "read",
    async execute({ query, limit }) {
      const words = query.toLowerCase().split(/\s+/);
      const names = (await readdir(notes.root)).filter((name) => name.endsWith(".md")).sort();
      const hits: string[] = [];
      for (const name of names) {
        const text = await readFile(path.join(notes.root, name), "utf8");
        if (words.every((word) => text.toLowerCase().includes(word))) {
          hits.push(`${name}: ${text.split("\n").filter(Boolean).slice(0, 2).join(" / ")}`);
          if (hits.length >= limit) break;
        }
      }
      return toolSuccess(hits.length === 0 ? `No note matches '${query}'.` : hits.join("\n"), {
        matches: hits.length,
      });
    },
  });
}
