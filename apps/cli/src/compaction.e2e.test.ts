// Compaction keeps what matters, through the built CLI against a scripted Ollama with a
// 4096-token context: a plan run that reads many files is pruned several times, and its last
// request still holds the project's instructions (a marker in AGENTS.md), the plan with its
// goal, and the plan's latest progress; `history show` marks what the model no longer sees.
// In chat, `/compact FOCUS` prunes and has the model summarise with the focus, and `/context`
// shows what the tool definitions cost.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.test-support.js";

const MARKER = "MARKER-RULE-4471";
const GOAL = "GOAL-7781 condense the field notes";
const FILES = 24;
const WINDOW = 4096;

/** Reads every note, marking instruction 1 done after the 8th and 2 after the 16th. */
const STEPS = [
  ...Array.from({ length: 8 }, (_, index) => index + 1),
  "done-1",
  ...Array.from({ length: 8 }, (_, index) => index + 9),
  "done-2",
  ...Array.from({ length: FILES - 16 }, (_, index) => index + 17),
] as const;

function planRun(_request: OllamaChatRequest, index: number) {
  const step = STEPS[index];
  if (step === undefined) return { content: "All notes read." };
  if (typeof step === "string")
    return {
      toolCalls: [
        { name: "mark_instruction_done", arguments: { number: step === "done-1" ? 1 : 2 } },
      ],
    };
  return { toolCalls: [{ name: "read_file", arguments: { path: `note-${step}.txt` } }] };
}

/** Chat: the summary request gets a summary; a message naming a file reads it, then answers. */
function chatTurns(request: OllamaChatRequest) {
  const system = request.messages[0]?.content ?? "";
  if (system.startsWith("Summarise")) return { content: "We read notes about the harbour." };
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { content: "Noted." };
  const file = /note-\d+\.txt/.exec(last?.content ?? "")?.[0];
  return file
    ? { toolCalls: [{ name: "read_file", arguments: { path: file } }] }
    : { content: "ok" };
}

let base: string;
let workspace: string;
let plan: ScriptedOllama;
let chat: ScriptedOllama;

function env(server: ScriptedOllama): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "",
    HOME: path.join(base, "home"),
    OLLAMA_HOST: server.url,
    XZATOMA_PROVIDER: "ollama",
    XZATOMA_PROVIDER_OLLAMA_NUM_CTX: String(WINDOW),
  };
}

const contents = (request: OllamaChatRequest | undefined) =>
  (request?.messages ?? []).map((message) => message.content);

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-compaction-")));
  workspace = path.join(base, "project");
  await mkdir(workspace);
  await mkdir(path.join(base, "home"));
  await writeFile(
    path.join(workspace, "AGENTS.md"),
    `# Project rules\n\n${MARKER}: quote every figure with its unit.\n`,
  );
  for (let index = 1; index <= FILES; index += 1) {
    const line = `Note ${index}: the harbour log lists boats, tides and the weather.\n`;
    await writeFile(
      path.join(workspace, `note-${index}.txt`),
      line.repeat(Math.ceil(1800 / line.length)),
    );
  }
  await writeFile(
    path.join(workspace, "plan.yaml"),
    [
      "name: Field notes",
      `goal: ${GOAL}`,
      "instructions:",
      "  - Read notes 1 to 8",
      "  - Read notes 9 to 16",
      "  - Read the rest and condense them",
      "",
    ].join("\n"),
  );
  plan = await startScriptedOllama({ scenario: planRun });
  chat = await startScriptedOllama({ scenario: chatTurns });
});

afterAll(async () => {
  await plan?.close();
  await chat?.close();
  await rm(base, { recursive: true, force: true });
});

describe("a plan run long enough to compact several times", () => {
  it("keeps the instructions' marker, the plan with its goal and its latest progress in the last request", async () => {
    const outcome = await runCli(["run", "--json", "--plan", "plan.yaml"], {
      cwd: workspace,
      env: env(plan),
    });
    expect(outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
    const prunes = outcome.stdout
      .split("\n")
      .filter((line) => line.includes('"type":"context-pruned"'));
    expect(prunes.length).toBeGreaterThanOrEqual(2);

    const requests = plan.requests;
    expect(requests).toHaveLength(STEPS.length + 1);
    const last = requests.at(-1);
    const sent = contents(last);
    // The instructions: the system prompt with AGENTS.md.
    expect(last?.messages[0]?.role).toBe("system");
    expect(last?.messages[0]?.content).toContain(MARKER);
    // The plan and its goal: the first request, verbatim.
    const first = requests[0]?.messages.find((message) => message.role === "user")?.content;
    expect(first).toContain(GOAL);
    expect(sent).toContain(first);
    // The plan's latest progress, and not the superseded one.
    expect(sent.some((text) => text.includes("Completed 2/3 instructions"))).toBe(true);
    expect(sent.some((text) => text.includes("Completed 1/3 instructions"))).toBe(false);
    // The early notes are gone from the request (pruned), so pruning really happened.
    expect(sent.some((text) => text.includes("Note 1:"))).toBe(false);

    // The history keeps every message and marks what the model no longer sees.
    const listed = await runCli(["history", "list", "--json"], {
      cwd: workspace,
      env: env(plan),
    });
    const id = (JSON.parse(listed.stdout) as { items: { id: string }[] }).items[0]?.id ?? "";
    const shown = await runCli(["history", "show", id], { cwd: workspace, env: env(plan) });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/\[pruned\] read_file ✓ Note 1:/);
    expect(shown.stdout).toMatch(/\[pruned\] mark_instruction_done ✓ Completed 1\/3/);
    expect(shown.stdout).not.toMatch(/\[pruned\] mark_instruction_done ✓ Completed 2\/3/);
    expect(shown.stdout).toMatch(
      /\[pruned\]: \d+ messages kept in history that the model no longer sees/,
    );
  }, 180_000);
});

describe("/compact and /context in chat", () => {
  it("compacts with a focus, keeps the instructions and the goal, and shows the tool definitions' cost", async () => {
    const input = [
      `${GOAL}: start with note-1.txt`,
      "now note-2.txt",
      "keep the tide tables verbatim",
      "and note-3.txt",
      "/compact the tides",
      "/context",
      "what next?",
      "",
    ].join("\n");
    const outcome = await runCli(["chat"], { cwd: workspace, env: env(chat), input });
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/Compacted: \d+ older message\(s\) are no longer sent/);
    expect(outcome.stdout).toContain("We read notes about the harbour.");
    // The summary missed the person's request: it was added from the record.
    expect(outcome.stdout).toContain('"keep the tide tables verbatim"');
    expect(outcome.stdout).toMatch(
      /Tool definitions: \d+ tools sent with each request, about \d+ tokens/,
    );

    const summaryRequest = chat.requests.find((request) =>
      request.messages[0]?.content.startsWith("Summarise"),
    );
    expect(summaryRequest?.messages[0]?.content).toContain("Keep most detail about: the tides");
    const last = contents(chat.requests.at(-1));
    expect(last[0]).toContain(MARKER);
    expect(last).toContain(`${GOAL}: start with note-1.txt`);
    expect(last).toContain("what next?");
    expect(last.some((text) => text.includes("We read notes about the harbour."))).toBe(true);
    expect(last).not.toContain("now note-2.txt");
  }, 180_000);
});
