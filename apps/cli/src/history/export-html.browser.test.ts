// The HTML export opened in a real headless Chromium: it renders, its tool calls start
// collapsed and expand to show their input and result, the diff is coloured, a subagent is
// nested, and the page requests nothing but itself. Skipped where no Chromium is installed
// (`apt-get install chromium`).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ConversationTree, StoredMessage } from "@xzatoma/persistence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConversationExport } from "./conversation-export.js";
import { exportHtml } from "./export-html.js";
import { findChromium, openHeadless, type HeadlessPage } from "./headless-browser.test-support.js";

const chromium = findChromium();
const BROWSER_TIMEOUT_MS = 120_000;

function stored(sequence: number, message: StoredMessage["message"]): StoredMessage {
  return {
    sequence,
    role: message.role,
    message,
    pruned: false,
    pinned: false,
    createdAt: "2026-11-29T01:00:00Z",
  };
}

function conversation(
  id: string,
  messages: StoredMessage["message"][],
  children: ConversationTree[] = [],
): ConversationTree {
  return {
    id,
    parentId: undefined,
    label: children.length === 0 ? "reviewer" : undefined,
    depth: 0,
    title: children.length === 0 ? "Review the change" : "Say goodbye",
    provider: "ollama",
    model: "qwen2.5-coder:7b",
    status: "completed",
    stopReason: "completed",
    startedAt: "2026-11-29T01:00:00Z",
    completedAt: "2026-11-29T01:00:09Z",
    usage: { inputTokens: 1200, outputTokens: 80, totalTokens: 1280 },
    turns: 2,
    messages: messages.map((message, index) => stored(index, message)),
    children,
  };
}

const DIFF =
  'Edited app.js (replaced 1 occurrence):\n\n--- a/app.js\n+++ b/app.js\n@@ -1,1 +1,1 @@\n-console.log("hello");\n+console.log("goodbye");\n';

// tools/test.sh installs Chromium; where it runs (CI) a missing browser is a failure, not a skip.
describe.skipIf(chromium === undefined && process.env["CI"] === undefined)(
  "the HTML export in a headless browser",
  () => {
    let directory: string;
    let page: HeadlessPage;

    beforeAll(async () => {
      directory = mkdtempSync(path.join(tmpdir(), "xz-export-html-"));
      const child = conversation("01CHILD0000000000000000000", [
        { role: "user", content: "Review app.js" },
        { role: "assistant", content: "It looks right.", toolCalls: [] },
      ]);
      const tree = conversation(
        "01PARENT000000000000000000",
        [
          { role: "user", content: "Say goodbye <img src=http://127.0.0.1:9/x.png>" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "c1", name: "edit_file", input: { path: "app.js", mode: "edit" } }],
          },
          { role: "tool", toolCallId: "c1", toolName: "edit_file", content: DIFF, isError: false },
          { role: "assistant", content: "Said goodbye.", toolCalls: [] },
        ],
        [child],
      );
      const file = path.join(directory, "export.html");
      writeFileSync(file, exportHtml(buildConversationExport(tree)));
      page = await openHeadless(chromium ?? "", pathToFileURL(file).href);
    }, BROWSER_TIMEOUT_MS);

    afterAll(async () => {
      await page?.close();
      if (directory) rmSync(directory, { recursive: true, force: true });
    });

    it("renders the conversation as text, markup in it included", async () => {
      expect(await page.evaluate<string>("document.title")).toBe("Say goodbye");
      const text = await page.evaluate<string>("document.body.innerText");
      expect(text).toContain("Said goodbye.");
      expect(text).toContain("<img src=http://127.0.0.1:9/x.png>");
      expect(await page.evaluate<number>("document.images.length")).toBe(0);
      const png = await page.screenshot();
      expect(png.subarray(1, 4).toString()).toBe("PNG");
      expect(png.length).toBeGreaterThan(5000);
    });

    it("shows a tool call collapsed, and its input and result once expanded", async () => {
      const before = await page.evaluate<{ open: boolean; resultVisible: boolean }>(
        `(() => { const d = document.querySelector("details.tool"); const pre = d.querySelectorAll("pre")[1]; return { open: d.open, resultVisible: pre.checkVisibility() }; })()`,
      );
      expect(before).toEqual({ open: false, resultVisible: false });
      const after = await page.evaluate<{ open: boolean; resultVisible: boolean; text: string }>(
        `(() => { const d = document.querySelector("details.tool"); d.querySelector("summary").click(); const pre = d.querySelectorAll("pre")[1]; return { open: d.open, resultVisible: pre.checkVisibility(), text: d.innerText }; })()`,
      );
      expect(after.open).toBe(true);
      expect(after.resultVisible).toBe(true);
      expect(after.text).toContain('+console.log("goodbye");');
    });

    it("colours the diff's added and removed lines differently", async () => {
      const colours = await page.evaluate<{ add: string; del: string; plain: string }>(
        `(() => { const c = (s) => getComputedStyle(document.querySelector(s)).color; return { add: c(".add"), del: c(".del"), plain: c("pre") }; })()`,
      );
      expect(colours.add).not.toBe(colours.del);
      expect(colours.add).not.toBe(colours.plain);
    });

    it("nests the subagent's conversation", async () => {
      const nested = await page.evaluate<string>(
        `document.querySelector("details.subagent").innerText`,
      );
      expect(nested).toContain("Subagent reviewer: Review the change");
      expect(nested).toContain("It looks right.");
    });

    it("requests nothing but the page itself", () => {
      expect(page.requests).toHaveLength(1);
      expect(page.requests[0]).toMatch(/^file:.*export\.html$/);
    });
  },
);
