// What a person sees at an approval question in a real terminal: `xzatoma chat` in tmux
// against the scripted Ollama server. An overwrite shows a diff of the file as it is against
// what it would become (not the new content), an edit of a call changes its path as plain
// text, and a refusal reads in the person's words, not in the words meant for the model.
import { readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { describe, expect, it } from "vitest";
import { chatTestBed } from "./chat-test-bed.test-support.js";
import { tmux } from "./terminal.test-support.js";

const OLD = [
  ...["alpha", "beta", "gamma", "delta", "epsilon", "zeta"],
  ...["eta", "theta", "iota", "kappa", ""],
].join("\n");
const NEW = OLD.replace("zeta", "ZETA CHANGED");

function scenario(request: OllamaChatRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { content: `Tool said: ${last.content.split("\n")[0] ?? ""}` };
  const text = request.messages.findLast((message) => message.role === "user")?.content ?? "";
  if (text.startsWith("rewrite notes"))
    return { toolCalls: [{ name: "write_file", arguments: { path: "notes.txt", content: NEW } }] };
  return { content: "Hello from the scripted model." };
}

const bed = chatTestBed("xz-approval-diff", () => startScriptedOllama({ scenario }));
const { waitFor, type, screen } = bed.terminal;

async function startChat(): Promise<void> {
  // Write mode, asking before every change.
  const mode = ["--mode", "write", "--approval", "untrusted"];
  bed.startChat({ args: [...mode, "--host", bed.server.url, "-w", bed.workspace] });
  await waitFor((text) => text.includes(">>>"), "the prompt");
}

async function askToOverwrite(): Promise<string> {
  await writeFile(path.join(bed.workspace, "notes.txt"), OLD);
  type("rewrite notes");
  return waitFor(
    (text) =>
      text.includes("write_file wants to: overwrite notes.txt") && text.includes("[r]eject?"),
    "the approval question",
  );
}

describe("an overwrite at the approval question", () => {
  it("shows the diff of the file before it is approved, and writes it after the yes", async () => {
    await startChat();
    const question = await askToOverwrite();
    const lines = question.split("\n").map((line) => line.trim());
    expect(lines).toContain("1 line removed, 1 line added in notes.txt:");
    expect(lines).toContain("--- a/notes.txt");
    expect(lines).toContain("+++ b/notes.txt");
    expect(lines).toContain("-zeta");
    expect(lines).toContain("+ZETA CHANGED");
    // Three lines of context around the change, not the whole new content.
    expect(lines).toContain("gamma");
    expect(lines).toContain("iota");
    expect(lines).not.toContain("beta");
    expect(lines).not.toContain("kappa");
    expect(question).not.toContain("content (");
    // Nothing happened yet.
    expect(await readFile(path.join(bed.workspace, "notes.txt"), "utf8")).toBe(OLD);
    type("a");
    await waitFor((text) => text.includes("Tool said: Overwrote notes.txt"), "the answer");
    expect(await readFile(path.join(bed.workspace, "notes.txt"), "utf8")).toBe(NEW);
  }, 180_000);

  it("edits the path as plain text, and a refusal reads in the person's words", async () => {
    await startChat();
    await askToOverwrite();
    type("e");
    await waitFor((text) => text.includes("edit path> notes.txt"), "the path in the line editor");
    // Replace the path: clear the line (Ctrl-U) and type another one.
    tmux("send-keys", "-t", bed.session ?? "", "C-u");
    type("other.txt");
    await waitFor((text) => text.includes("Tool said: Created other.txt"), "the edited write");
    expect(await readFile(path.join(bed.workspace, "other.txt"), "utf8")).toBe(NEW);
    expect(await readFile(path.join(bed.workspace, "notes.txt"), "utf8")).toBe(OLD);

    type("rewrite notes");
    await waitFor(
      (text) => text.split("write_file wants to: overwrite notes.txt").length === 3,
      "the second question",
    );
    type("r");
    await waitFor((text) => text.includes("✗ not run: you refused it"), "the refusal");
    expect(screen()).not.toContain("✗ The call to 'write_file' was not approved");
    expect(existsSync(path.join(bed.workspace, "notes.txt"))).toBe(true);
    expect(await readFile(path.join(bed.workspace, "notes.txt"), "utf8")).toBe(OLD);
  }, 240_000);
});
