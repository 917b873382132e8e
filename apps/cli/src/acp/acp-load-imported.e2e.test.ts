// A conversation handed to an editor on another machine: the built `xzatoma run` against a
// scripted model (a prompt and a file the model reads, both carrying a secret), `history export`
// in every format, `history import` of the JSON into a fresh data directory, and then
// `xzatoma agent` on that fresh directory answering ACP `session/load` with the imported id:
// the editor is shown the conversation again, tool calls included, and the next prompt
// continues it. No export and nothing the editor or the model receives holds the secret.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli.test-support.js";
import { initialize, startEditor, type TestEditor } from "./acp.test-support.js";

/** A distinctive secret: if it shows anywhere below, it leaked. */
const CANARY = "xzcanary-acp-load-5d20c9e1";
const RUN_TIMEOUT_MS = 240_000;

const CALLS = [
  { name: "read_file", arguments: { path: "deploy.txt" } },
  { name: "write_file", arguments: { path: "notes.md", content: "goodbye noted\n" } },
];

let base: string;
let workspace: string;
let model: ScriptedOllama;
let importedId = "";
let editor: TestEditor | undefined;
const exports: Record<string, string> = {};

const envFor = (home: string) => ({
  PATH: process.env["PATH"] ?? "",
  HOME: home,
  XZATOMA_HOME: path.join(home, ".xzatoma"),
});
const cli = (args: readonly string[], home: string) =>
  runCli(args, { cwd: workspace, env: envFor(home) });

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-acp-load-")));
  workspace = path.join(base, "project");
  const home = path.join(base, "home");
  const fresh = path.join(base, "fresh-home");
  await mkdir(home, { recursive: true });
  await mkdir(fresh, { recursive: true });
  await mkdir(workspace, { recursive: true });
  await writeFile(path.join(workspace, "deploy.txt"), `deploy with API_TOKEN=${CANARY}\n`);
  spawnSync("git", ["init", "-q", workspace]);
  model = await startScriptedOllama({
    scenario: (request) => {
      const step = request.messages.filter((message) => message.role === "tool").length;
      const last = request.messages.findLast((message) => message.role === "user")?.content ?? "";
      if (last.startsWith("What did you note")) return { content: "I noted goodbye." };
      const call = CALLS[step];
      return call ? { toolCalls: [call] } : { content: "Said goodbye and noted it." };
    },
  });
  const run = await cli(
    [
      "run",
      "--mode",
      "write",
      "--prompt",
      `Say goodbye. The token is API_TOKEN=${CANARY}`,
      "--host",
      model.url,
    ],
    home,
  );
  if (run.code !== 0) throw new Error(`the run failed (${String(run.code)}): ${run.stderr}`);
  const listed = JSON.parse((await cli(["history", "list", "--json"], home)).stdout) as {
    items: { id: string }[];
  };
  const id = listed.items[0]?.id ?? "";
  for (const format of ["md", "json", "html"]) {
    const file = path.join(base, `export.${format}`);
    const exported = await cli(
      ["history", "export", id, "--format", format, "--output", file],
      home,
    );
    if (exported.code !== 0) throw new Error(`export ${format} failed: ${exported.stderr}`);
    exports[format] = await readFile(file, "utf8");
  }
  const imported = await cli(
    ["history", "import", path.join(base, "export.json"), "--json"],
    fresh,
  );
  if (imported.code !== 0) throw new Error(`the import failed: ${imported.stderr}`);
  importedId = (JSON.parse(imported.stdout) as { id: string }).id;
}, RUN_TIMEOUT_MS);

afterAll(async () => {
  await editor?.stop();
  await model?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe("an imported conversation over ACP", () => {
  it("no export format holds the secret", () => {
    expect(Object.keys(exports).sort()).toEqual(["html", "json", "md"]);
    for (const [format, text] of Object.entries(exports)) {
      expect(text, format).toContain("Say goodbye");
      expect(text, format).toContain("read_file");
      expect(text, format).not.toContain(CANARY);
    }
  });

  it(
    "session/load on a fresh data directory replays it and the next prompt continues it",
    async () => {
      expect(importedId).toMatch(/^[0-9A-Z]{26}$/);
      editor = startEditor({
        cwd: base,
        env: { ...envFor(path.join(base, "fresh-home")), OLLAMA_HOST: model.url },
      });
      await initialize(editor);
      await editor.connection.agent.request("session/load", {
        sessionId: importedId,
        cwd: workspace,
        mcpServers: [],
      });
      const replayed = editor.updates
        .filter((note) => note.sessionId === importedId)
        .map((note) => note.update);
      const user = replayed.find((update) => update.sessionUpdate === "user_message_chunk");
      expect(
        user?.sessionUpdate === "user_message_chunk" && user.content.type === "text"
          ? user.content.text
          : "",
      ).toContain("Say goodbye.");
      const calls = replayed.flatMap((update) =>
        update.sessionUpdate === "tool_call" ? [update] : [],
      );
      expect(calls.map((call) => call.rawInput)).toEqual(CALLS.map((call) => call.arguments));
      expect(calls.map((call) => call.status)).toEqual(["completed", "completed"]);
      expect(replayed).toContainEqual({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "Said goodbye and noted it." },
      });
      expect(JSON.stringify(replayed)).not.toContain(CANARY);

      const before = model.requests.length;
      const answer = await editor.connection.agent.request("session/prompt", {
        sessionId: importedId,
        prompt: [{ type: "text", text: "What did you note?" }],
      });
      expect(answer.stopReason).toBe("end_turn");
      const sent = model.requests.slice(before);
      expect(sent).toHaveLength(1);
      const contents = sent[0]?.messages.map((message) => message.content) ?? [];
      expect(contents.some((content) => content.startsWith("Say goodbye."))).toBe(true);
      expect(contents).toContain("What did you note?");
      expect(JSON.stringify(sent)).not.toContain(CANARY);
      expect(editor.stderr()).not.toContain(CANARY);
    },
    RUN_TIMEOUT_MS,
  );
});
