import { mkdtemp, readFile, rm, stat, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openPromptHistory, promptHistoryFile } from "./prompt-history.js";

let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "xz-prompt-history-"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

it("keeps messages, several lines included, for the next session in a private file", async () => {
  const file = promptHistoryFile(path.join(base, "data"));
  const first = openPromptHistory({ file });
  first.add("hello");
  first.add("two\nlines");
  first.add("two\nlines");
  first.add("   ");
  first.add("exit");
  expect(openPromptHistory({ file }).entries()).toEqual(["hello", "two\nlines"]);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
});

it("does not keep a message in which a secret is found", async () => {
  const file = path.join(base, "history.jsonl");
  const history = openPromptHistory({ file });
  history.add("use the key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH please");
  history.add('curl -H "Authorization: Bearer abc123def456ghi789" https://api.example');
  history.add("an ordinary question");
  expect(history.entries()).toEqual(["an ordinary question"]);
  expect(await readFile(file, "utf8")).toBe('"an ordinary question"\n');
});

it("stays bounded: only the last entries are kept, in the file too", async () => {
  const file = path.join(base, "history.jsonl");
  for (let session = 0; session < 3; session += 1) {
    const history = openPromptHistory({ file, maxEntries: 8 });
    for (let index = 0; index < 7; index += 1) history.add(`message ${session}-${index}`);
  }
  const reopened = openPromptHistory({ file, maxEntries: 8 });
  expect(reopened.entries()).toHaveLength(8);
  expect(reopened.entries().at(-1)).toBe("message 2-6");
  const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
  expect(lines.length).toBeLessThanOrEqual(10);
});

it("makes a readable history file private and skips a torn line", async () => {
  const file = path.join(base, "history.jsonl");
  await writeFile(file, '"one"\n"tw');
  await chmod(file, 0o644);
  expect(openPromptHistory({ file }).entries()).toEqual(["one"]);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
});

it("warns once, naming the file, and keeps the session's messages when it cannot be written", async () => {
  const warnings: string[] = [];
  // A file where the history's folder should be.
  await writeFile(path.join(base, "blocker"), "");
  const file = path.join(base, "blocker", "history.jsonl");
  const history = openPromptHistory({ file, warn: (message) => warnings.push(message) });
  history.add("a");
  history.add("b");
  expect(history.entries()).toEqual(["a", "b"]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(file);
});
