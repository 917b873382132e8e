import { describe, expect, it } from "vitest";
import { mentionLabel } from "./mention.js";
import { parseMentions } from "./parse-mentions.js";

const fields = (text: string) =>
  parseMentions(text).map(({ raw: _raw, start: _start, end: _end, ...rest }) => rest);

describe("parseMentions", () => {
  it("finds each kind, with positions", () => {
    const text = 'Review @src/a.ts and @search:"fn new" @grep:"^pub fn" @url:https://example.com/x';
    const mentions = parseMentions(text);
    expect(mentions.map((mention) => mention.kind)).toEqual(["file", "search", "grep", "url"]);
    expect(mentions[0]).toEqual({
      kind: "file",
      path: "src/a.ts",
      raw: "@src/a.ts",
      start: 7,
      end: 16,
    });
    expect(mentions[1]).toMatchObject({ query: "fn new", raw: '@search:"fn new"' });
    expect(mentions[2]).toMatchObject({ pattern: "^pub fn" });
    expect(mentions[3]).toMatchObject({ url: "https://example.com/x", end: text.length });
    for (const mention of mentions) {
      expect(text.slice(mention.start, mention.end)).toBe(mention.raw);
    }
  });

  it("reads line ranges, single lines and open-ended ranges", () => {
    expect(fields("@a.ts#L10-20 @b.ts#L7 @c.ts#L10- @d.ts#L3-L5")).toEqual([
      { kind: "file", path: "a.ts", lines: { start: 10, end: 20 } },
      { kind: "file", path: "b.ts", lines: { start: 7, end: 7 } },
      { kind: "file", path: "c.ts", lines: { start: 10 } },
      { kind: "file", path: "d.ts", lines: { start: 3, end: 5 } },
    ]);
    // Kept as written; the loader explains why a range is wrong.
    expect(fields("@a.ts#L20-10")).toEqual([
      { kind: "file", path: "a.ts", lines: { start: 20, end: 10 } },
    ]);
    expect(fields("@a.ts#section")).toEqual([{ kind: "file", path: "a.ts" }]);
  });

  it("ignores email addresses, @ inside words, escaped @ and code", () => {
    expect(parseMentions("Mail ada@example.com or a@b; see \\@notes")).toEqual([]);
    expect(parseMentions("Run `npm i @types/node` then")).toEqual([]);
    expect(parseMentions("```ts\n@decorator\nclass A {}\n```\nand @real.ts")).toMatchObject([
      { kind: "file", path: "real.ts" },
    ]);
    expect(parseMentions("@ alone, @@twice")).toEqual([]);
  });

  it("allows spaces inside quotes and single words without quotes", () => {
    expect(
      fields('@search:"TODO list" @grep:\'a\\s+b\' @search:FIXME @"docs/my notes.md"#L2-3'),
    ).toEqual([
      { kind: "search", query: "TODO list" },
      { kind: "grep", pattern: "a\\s+b" },
      { kind: "search", query: "FIXME" },
      { kind: "file", path: "docs/my notes.md", lines: { start: 2, end: 3 } },
    ]);
    expect(fields('@search:"say \\"hi\\""')).toEqual([{ kind: "search", query: 'say "hi"' }]);
    expect(parseMentions('@search:"unclosed')).toEqual([]);
  });

  it("leaves trailing punctuation out of paths, terms and URLs", () => {
    expect(fields("Read @README.md. Then @src/a.ts, @b.ts; (@c.ts) and @d.ts#L1-2.")).toEqual([
      { kind: "file", path: "README.md" },
      { kind: "file", path: "src/a.ts" },
      { kind: "file", path: "b.ts" },
      { kind: "file", path: "c.ts" },
      { kind: "file", path: "d.ts", lines: { start: 1, end: 2 } },
    ]);
    expect(
      fields(
        "See @url:https://example.com/a?b=1. And @url:https://en.wikipedia.org/wiki/Foo_(bar).",
      ),
    ).toEqual([
      { kind: "url", url: "https://example.com/a?b=1" },
      { kind: "url", url: "https://en.wikipedia.org/wiki/Foo_(bar)" },
    ]);
    expect(fields("Is it @search:TODO?")).toEqual([{ kind: "search", query: "TODO" }]);
  });

  it("parses paths the loader must refuse, so the user is told why", () => {
    expect(fields("@../secrets.txt @/etc/passwd")).toEqual([
      { kind: "file", path: "../secrets.txt" },
      { kind: "file", path: "/etc/passwd" },
    ]);
  });

  it("labels mentions in their canonical form", () => {
    const labels = parseMentions('@a.ts#L3- @"my file.md" @search:"x y" @url:https://e.com').map(
      mentionLabel,
    );
    expect(labels).toEqual(["@a.ts#L3-", '@"my file.md"', '@search:"x y"', "@url:https://e.com"]);
  });
});
