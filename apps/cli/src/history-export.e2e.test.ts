// Export and import end to end: the built `xzatoma run` against a scripted model whose run
// carries a secret (in the prompt, a tool call's input and a tool result), then
// `history export` in every format and `history import` into a fresh data directory.
// No export holds the secret; the import holds the conversation, tool calls and results.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type Outcome } from "./cli.test-support.js";

/** A distinctive secret: if it appears in any export, it leaked. */
const CANARY = "xzcanary-export-4e81b7aa";
const RUN_TIMEOUT_MS = 240_000;

const CALLS = [
  {
    name: "edit_file",
    arguments: { path: "app.js", mode: "edit", old_text: "hello", content: "goodbye" },
  },
  { name: "read_file", arguments: { path: "settings.env" } },
  {
    name: "write_file",
    arguments: { path: "notes.md", content: `remember API_TOKEN=${CANARY}\n` },
  },
];

let base: string;
let workspace: string;
let model: ScriptedOllama;
let conversationId: string;
let runOutcome: Outcome;

const envFor = (home: string) => ({
  PATH: process.env["PATH"] ?? "",
  HOME: home,
  XZATOMA_HOME: path.join(home, ".xzatoma"),
});
const cli = (args: readonly string[], home = path.join(base, "home")) =>
  runCli(args, { cwd: workspace, env: envFor(home) });

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-export-")));
  workspace = path.join(base, "project");
  await mkdir(path.join(base, "home"), { recursive: true });
  await mkdir(path.join(base, "fresh-home"), { recursive: true });
  await mkdir(workspace, { recursive: true });
  await writeFile(path.join(workspace, "app.js"), 'console.log("hello");\n');
  await writeFile(path.join(workspace, "settings.env"), `API_TOKEN=${CANARY}\n`);
  spawnSync("git", ["init", "-q", workspace]);
  model = await startScriptedOllama({
    scenario: (request) => {
      const step = request.messages.filter((message) => message.role === "tool").length;
      const call = CALLS[step];
      return call ? { toolCalls: [call] } : { content: "Said goodbye <b>loudly</b>." };
    },
  });
  runOutcome = await cli([
    "run",
    "--mode",
    "write",
    "--prompt",
    `Say goodbye. The token is API_TOKEN=${CANARY}`,
    "--host",
    model.url,
  ]);
  if (runOutcome.code !== 0)
    throw new Error(`the run failed (${String(runOutcome.code)}): ${runOutcome.stderr}`);
  const listed = JSON.parse((await cli(["history", "list", "--json"])).stdout) as
    { items?: { id: string }[] } | { id: string }[];
  conversationId = (Array.isArray(listed) ? listed : (listed.items ?? []))[0]?.id ?? "";
}, RUN_TIMEOUT_MS);

afterAll(async () => {
  await model?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe("xzatoma history export and import", () => {
  it("exports Markdown, JSON and HTML, none holding the secret", async () => {
    expect(runOutcome.code, runOutcome.stderr).toBe(0);
    for (const format of ["md", "json", "html"]) {
      const exported = await cli(["history", "export", conversationId, "--format", format]);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toContain("edit_file");
      expect(exported.stdout).toContain("Say goodbye");
      expect(exported.stdout).not.toContain(CANARY);
    }
  });

  it("writes a versioned JSON document with the tool calls and their results", async () => {
    const exported = await cli(["history", "export", conversationId, "--format", "json"]);
    const document = JSON.parse(exported.stdout) as {
      format: string;
      version: number;
      conversation: {
        messages: {
          message: { role: string; toolCalls?: { name: string }[]; toolName?: string };
        }[];
        subagents: unknown[];
      };
    };
    expect(document.format).toBe("xzatoma-conversation");
    expect(document.version).toBe(1);
    const messages = document.conversation.messages.map((entry) => entry.message);
    expect(messages.flatMap((message) => message.toolCalls ?? []).map((call) => call.name)).toEqual(
      ["edit_file", "read_file", "write_file"],
    );
    expect(messages.filter((message) => message.role === "tool").map((m) => m.toolName)).toEqual([
      "edit_file",
      "read_file",
      "write_file",
    ]);
    expect(document.conversation.subagents).toEqual([]);
  });

  it("makes the HTML one page that loads nothing, with tool calls in <details> and the diff coloured", async () => {
    const html = (await cli(["history", "export", conversationId, "--format", "html"])).stdout;
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script|<link|\bsrc=|url\(/i);
    expect(html.match(/<details class="tool">/g)).toHaveLength(3);
    expect(html).toContain('<span class="add">+console.log(&#34;goodbye&#34;);</span>');
    // The model's text is text, not markup.
    expect(html).toContain("&#60;b&#62;loudly&#60;/b&#62;");
  });

  it("imports the JSON export into a fresh data directory", async () => {
    const file = path.join(base, "export.json");
    const exported = await cli([
      "history",
      "export",
      conversationId,
      "--format",
      "json",
      "--output",
      file,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const fresh = path.join(base, "fresh-home");
    const imported = await cli(["history", "import", file, "--json"], fresh);
    expect(imported.code, imported.stderr).toBe(0);
    const { id } = JSON.parse(imported.stdout) as { id: string };
    expect(id).toMatch(/^[0-9A-Z]{26}$/);
    const shown = await cli(["history", "show", id], fresh);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("Say goodbye");
    expect(shown.stdout).toContain("read_file");
    expect(await readFile(file, "utf8")).not.toContain(CANARY);
    // The imported conversation continues where it stopped, on the new machine's history.
    const before = model.requests.length;
    const resumed = await cli(
      ["run", "--resume", id, "--prompt", "And now hello.", "--host", model.url],
      fresh,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const sent = JSON.stringify(model.requests.slice(before));
    expect(sent).toContain("Say goodbye");
    expect(sent).toContain("And now hello.");
    expect(sent).not.toContain(CANARY);
  });

  it("refuses a file that is not an export, naming what is wrong", async () => {
    const file = path.join(base, "not-an-export.json");
    await writeFile(file, JSON.stringify({ format: "something-else" }));
    const refused = await cli(["history", "import", file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("format");
  });
});
