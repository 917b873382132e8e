// Active skills survive compaction: a runtime with a small conversation budget, a scripted
// model that activates a skill (by the `skill` tool, or the person names it with `$name`) and
// then reads file after file until older messages are pruned again and again. The last
// request still carries each skill's instructions verbatim.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AgentEvent } from "@xzatoma/core";
import {
  startScriptedOpenAI,
  type ChatView,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentRuntime, type AgentRuntime } from "../agent-runtime.js";
import { resolveRuntimeConfig } from "../resolve-config.js";

const READS = 16;
let base: string;
let home: string;
let workspace: string;
let server: ScriptedOpenAI;
let runtime: AgentRuntime;
const seen: ChatView[] = [];

/** Each run: activates `release` first when asked, then reads every file, then answers. */
let step = 0;
let prompt = "";
function scenario(request: ChatView) {
  const user = request.messages.findLast((message) => message.role === "user")?.content ?? "";
  if (user !== prompt) {
    prompt = user;
    step = 0;
  }
  step += 1;
  const activates = user.includes("use the release skill");
  if (activates && step === 1)
    return { toolCalls: [{ name: "skill", arguments: { name: "release" } }] };
  const read = step - (activates ? 2 : 1);
  if (read < READS)
    return { toolCalls: [{ name: "read_file", arguments: { path: `big-${read + 1}.txt` } }] };
  return { content: "done" };
}

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "xz-skill-compaction-"));
  home = path.join(base, "home");
  workspace = path.join(base, "workspace");
  await mkdir(path.join(workspace, ".git"), { recursive: true });
  for (const name of ["release", "style"]) {
    await mkdir(path.join(home, ".xzatoma", "skills", name), { recursive: true });
    await writeFile(
      path.join(home, ".xzatoma", "skills", name, "SKILL.md"),
      `---\nname: ${name}\ndescription: How to ${name}.\n---\n${name.toUpperCase()}-SKILL-BODY-4410\n`,
    );
  }
  for (let index = 1; index <= READS; index += 1)
    await writeFile(path.join(workspace, `big-${index}.txt`), `File ${index}. `.repeat(300));
  server = await startScriptedOpenAI({
    scenario: (request) => {
      seen.push(request);
      return scenario(request);
    },
    apiKey: "sk-test",
    models: ["scripted-1"],
  });
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: server.url, model: "scripted-1" } },
      agent: {
        terminal: { sandbox: false },
        conversation: { max_tokens: 6000, min_retain_turns: 1 },
      },
      persistence: { data_dir: path.join(home, "data"), enabled: false },
    },
    { homeDir: home, env: {} },
  );
  runtime = await createAgentRuntime(
    config,
    { warn: () => undefined },
    {
      workspace,
      modes: { chatMode: "write", approvalPolicy: "never" },
      env: { OPENAI_API_KEY: "sk-test" },
      skills: { homeDir: home },
    },
  );
});

afterAll(async () => {
  await runtime?.close();
  await server?.close();
  await rm(base, { recursive: true, force: true });
});

const text = (request: ChatView | undefined) => JSON.stringify(request?.messages ?? []);

describe("active skills through compaction", () => {
  it("keeps a skill the model activated, and one the person named with $style, in every later request", async () => {
    const events: AgentEvent[] = [];
    const onEvent = (event: AgentEvent) => events.push(event);
    expect(
      (await runtime.run("use the release skill and read the files", { onEvent })).stopReason,
    ).toBe("completed");
    expect((await runtime.run("now $style, and read them again", { onEvent })).stopReason).toBe(
      "completed",
    );
    // A rebuilt agent (a mode switch) keeps what the old one kept.
    runtime.setMode("write");
    // A third run: the $style request is no longer the latest one, and is kept all the same.
    expect((await runtime.run("one more pass over the files", { onEvent })).stopReason).toBe(
      "completed",
    );
    const prunes = events.filter((event) => event.type === "context-pruned");
    expect(prunes.length).toBeGreaterThanOrEqual(3);
    const last = seen.at(-1);
    const messages = last?.messages ?? [];
    // Verbatim: the skill tool's whole result, and the whole request that named $style.
    expect(
      messages.some(
        (message) => message.role === "tool" && message.content.includes("RELEASE-SKILL-BODY-4410"),
      ),
    ).toBe(true);
    expect(
      messages.some(
        (message) =>
          message.role === "user" &&
          message.content.includes("STYLE-SKILL-BODY-4410") &&
          message.content.includes("now $style, and read them again"),
      ),
    ).toBe(true);
    // Pruning did happen inside the runs: the first files are no longer sent.
    expect(text(last)).not.toContain("File 1. File 1.");
  }, 120_000);
});

describe("a pinned prompt in a resumed conversation", () => {
  it("stays verbatim after the conversation is resumed from history", async () => {
    const config = resolveRuntimeConfig(
      {
        provider: { type: "openai", openai: { base_url: server.url, model: "scripted-1" } },
        agent: {
          terminal: { sandbox: false },
          conversation: { max_tokens: 6000, min_retain_turns: 1 },
        },
        persistence: { data_dir: path.join(home, "stored") },
      },
      { homeDir: home, env: {} },
    );
    const open = (resume: boolean) =>
      createAgentRuntime(
        config,
        { warn: () => undefined },
        {
          workspace,
          modes: { chatMode: "write", approvalPolicy: "never" },
          env: { OPENAI_API_KEY: "sk-test" },
          skills: { homeDir: home },
          ...(resume ? { history: { resume: { latest: true as const } } } : {}),
        },
      );
    const first = await open(false);
    // The first request is the goal, kept anyway; the $style one comes second.
    await first.run("read the files");
    await first.run("now $style, and read them again");
    await first.close();
    const resumed = await open(true);
    try {
      await resumed.run("one more pass over the files");
      await resumed.run("and a last pass over the files");
    } finally {
      await resumed.close();
    }
    const messages = seen.at(-1)?.messages ?? [];
    expect(
      messages.some(
        (message) =>
          message.role === "user" &&
          message.content.includes("STYLE-SKILL-BODY-4410") &&
          message.content.includes("now $style, and read them again"),
      ),
    ).toBe(true);
    expect(text(seen.at(-1))).not.toContain("File 1. File 1.");
  }, 120_000);
});
