import { describe, expect, it } from "vitest";
import { htmlToPlainText } from "./plain-text.js";

describe("htmlToPlainText", () => {
  it("keeps the text, drops scripts, styles and comments, and breaks lines at blocks", () => {
    expect(
      htmlToPlainText(
        "<!DOCTYPE html><html><head><title>T</title><style>p{}</style></head><body><!-- hidden --><h1>Title</h1><p>Hello <b>world</b> &lt;3 &#65;&#x42;</p><script>steal()</script><ul><li>one<li>two</ul></body></html>",
      ),
    ).toBe("T\nTitle\nHello world <3 AB\none\ntwo");
  });

  it("keeps stray angle brackets and survives unclosed parts", () => {
    expect(htmlToPlainText("a < b and c > d")).toBe("a < b and c > d");
    expect(htmlToPlainText("x <script>never closed")).toBe("x");
    expect(htmlToPlainText("x <!-- never closed")).toBe("x");
    expect(htmlToPlainText("x <b")).toBe("x <b");
  });

  it("stays linear on hostile pages", () => {
    const pages: [string, string][] = [
      ["<div>".repeat(200_000), ""],
      ["<script>".repeat(100_000), ""],
      ["<".repeat(500_000), "<".repeat(500_000)],
      ["<!--".repeat(100_000), ""],
      [`${"<a ".repeat(100_000)}>`, ""],
    ];
    for (const [page, text] of pages) expect(htmlToPlainText(page)).toBe(text);
  });
});
