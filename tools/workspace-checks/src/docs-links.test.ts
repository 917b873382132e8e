// Every relative link in the repository's Markdown (README, docs/, bench/, the packages' and
// apps' own files) leads to a file or directory that exists, so a renamed or missing guide
// fails here instead of in front of a reader.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SKIPPED = new Set(["node_modules", "dist", ".git", ".cache", ".toolchain", "reports", ".nx"]);

function markdownFiles(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith(".")) continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) found.push(...markdownFiles(full));
    else if (entry.isFile() && entry.name.endsWith(".md")) found.push(full);
  }
  return found;
}

/** The targets of inline links `[text](target)` outside code blocks and code spans. */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, "").replace(/`[^`\n]*`/g, "");
  const links: string[] = [];
  for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) continue;
    links.push(target);
  }
  return links;
}

describe("links between the repository's Markdown files", () => {
  it("finds inline links and leaves code, URLs and anchors alone", () => {
    expect(
      relativeLinks(
        "See [a](docs/a.md#x), [b](https://x.example), [c](#here).\n```md\n[d](nope.md)\n```\n`[e](no.md)`",
      ),
    ).toEqual(["docs/a.md#x"]);
  });

  it("all lead to files that exist", () => {
    const files = markdownFiles(ROOT);
    expect(files.length).toBeGreaterThan(20);
    const broken: string[] = [];
    for (const file of files) {
      for (const link of relativeLinks(readFileSync(file, "utf8"))) {
        const target = decodeURIComponent(link.split("#")[0]!);
        if (target === "") continue;
        if (!existsSync(path.resolve(path.dirname(file), target)))
          broken.push(`${path.relative(ROOT, file)}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
