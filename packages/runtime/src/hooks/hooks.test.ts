import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { startScriptedOpenAI } from "@xzatoma/scripted-servers/openai";
import type { ApprovalRequest } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentRuntime } from "../agent-runtime.js";
import { loadConfig } from "../config-loader/load-config.js";
import { readProjectConfig } from "../config-loader/project-config.js";
import { openTrustStore } from "../skills/skill-trust.js";
import {
  createHookFixture,
  hook,
  last,
  logTo,
  startHookedRuntime,
  type ChatView,
  type HookFixture,
} from "./hooks.test-support.js";

let fixture: HookFixture;
beforeEach(async () => {
  fixture = await createHookFixture();
});
afterEach(async () => {
  await fixture.close();
});

/** The model makes `call`, then answers; returns the tool message it read. */
async function callWithHooks(
  hooks: Record<string, unknown>,
  call: { name: string; arguments: Record<string, unknown> } = {
    name: "read_file",
    arguments: { path: "notes.txt" },
  },
): Promise<string> {
  const started = await startHookedRuntime(fixture, {
    start: startScriptedOpenAI,
    hooks,
    scenario: (_request, index) => (index === 0 ? { toolCalls: [call] } : { content: "done" }),
  });
  try {
    await started.runtime.run("read the notes");
  } finally {
    await started.close();
  }
  return last(started.seen[1], "tool");
}

// A here-document, so the JSON reaches standard output byte for byte (sh's echo reads `\n`).
const rewriteTo = (input: Record<string, unknown>) =>
  `#!/bin/sh\ncat > /dev/null\ncat <<'JSON'\n${JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: input },
  })}\nJSON\n`;

describe("PreToolUse and PostToolUse hooks", () => {
  it("gives PreToolUse the event as JSON and lets the call run on exit 0", async () => {
    const log = fixture.log("events.jsonl");
    const script = await fixture.script("log.sh", logTo(log));
    const tool = await callWithHooks({ PreToolUse: hook(script, { matcher: "read_file" }) });
    expect(tool).toContain("NOTES-CONTENT");
    expect(await fixture.events(log)).toMatchObject([
      {
        hook_event_name: "PreToolUse",
        tool_name: "read_file",
        tool_input: { path: "notes.txt" },
        cwd: fixture.workspace,
        permission_mode: "never",
      },
    ]);
  });

  it("runs only the hooks whose matcher names the tool", async () => {
    const log = fixture.log("events.jsonl");
    const script = await fixture.script("log.sh", logTo(log));
    const tool = await callWithHooks({
      PreToolUse: hook(script, { matcher: "write_file|terminal" }),
    });
    expect(tool).toContain("NOTES-CONTENT");
    expect(await fixture.events(log)).toEqual([]);
  });

  it("refuses the call when PreToolUse exits 2, its standard error reaching the model", async () => {
    const script = await fixture.script(
      "deny.sh",
      "#!/bin/sh\ncat > /dev/null\necho 'notes are off limits' >&2\nexit 2\n",
    );
    const tool = await callWithHooks({ PreToolUse: hook(script) });
    expect(tool).toContain("a PreToolUse hook refused it: notes are off limits");
    expect(tool).not.toContain("NOTES-CONTENT");
  });

  it("refuses the call when PreToolUse times out, fails or prints bad JSON (fail closed)", async () => {
    const slow = await fixture.script("slow.sh", "#!/bin/sh\nsleep 30\n");
    const timedOut = await callWithHooks({ PreToolUse: hook(slow, { timeout: 1 }) });
    expect(timedOut).toContain("a PreToolUse hook failed (timed out after 1 s)");
    expect(timedOut).not.toContain("NOTES-CONTENT");
    const failing = await fixture.script("fail.sh", "#!/bin/sh\nexit 1\n");
    expect(await callWithHooks({ PreToolUse: hook(failing) })).toContain(
      "a PreToolUse hook failed",
    );
    const garbled = await fixture.script("garbled.sh", "#!/bin/sh\necho '{not json'\n");
    const bad = await callWithHooks({ PreToolUse: hook(garbled) });
    expect(bad).toContain("its output is not valid JSON");
    expect(bad).not.toContain("NOTES-CONTENT");
  });

  it("refuses on permissionDecision deny, with the hook's reason", async () => {
    const script = await fixture.script(
      "deny-json.sh",
      `#!/bin/sh\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"use the index instead"}}'\n`,
    );
    const tool = await callWithHooks({ PreToolUse: hook(script) });
    expect(tool).toContain("use the index instead");
    expect(tool).not.toContain("NOTES-CONTENT");
  });

  it("applies an input rewrite: the call runs with the hook's input", async () => {
    const script = await fixture.script("rewrite.sh", rewriteTo({ path: "other.txt" }));
    const tool = await callWithHooks({ PreToolUse: hook(script) });
    expect(tool).toContain("OTHER-CONTENT");
    expect(tool).not.toContain("NOTES-CONTENT");
  });

  it("refuses a rewrite into an input the tool does not accept, naming the key", async () => {
    const script = await fixture.script(
      "rewrite.sh",
      rewriteTo({ path: "other.txt", start_line: 0 }),
    );
    const tool = await callWithHooks({ PreToolUse: hook(script) });
    expect(tool).toContain(
      "a PreToolUse hook rewrote the input into one 'read_file' does not accept (start_line:",
    );
    expect(tool).not.toContain("OTHER-CONTENT");
    expect(tool).not.toContain("NOTES-CONTENT");
  });

  it("judges a rewritten command again: a rewrite into a forbidden command is refused", async () => {
    const marker = path.join(fixture.base, "mkfs-ran");
    const script = await fixture.script(
      "rewrite.sh",
      rewriteTo({ command: `sudo touch ${marker}` }),
    );
    const tool = await callWithHooks(
      { PreToolUse: hook(script, { matcher: "terminal" }) },
      { name: "terminal", arguments: { command: "ls" } },
    );
    expect(tool).toMatch(/^Error: Refused:/);
    expect(tool).toContain("rewrote");
    expect(existsSync(marker)).toBe(false);
    // The same command without the rewrite runs: the refusal is the rewrite's.
    const plain = await callWithHooks({}, { name: "terminal", arguments: { command: "ls" } });
    expect(plain).toContain("notes.txt");
  });

  it("a rewrite into a command that needs a person is refused when nobody can be asked", async () => {
    const script = await fixture.script("rewrite.sh", rewriteTo({ command: "cat /etc/hostname" }));
    const tool = await callWithHooks(
      { PreToolUse: hook(script, { matcher: "terminal" }) },
      { name: "terminal", arguments: { command: "ls" } },
    );
    expect(tool).toContain("was not approved");
  });

  it("asks the person about the rewritten input, which is what runs", async () => {
    const script = await fixture.script(
      "rewrite.sh",
      rewriteTo({ path: ".notes", content: "WRITTEN-BY-HOOK\n" }),
    );
    // A hidden file: changing one needs a person (an ordinary file changes unasked).
    const asked: ApprovalRequest[] = [];
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: { PreToolUse: hook(script, { matcher: "write_file" }) },
      modes: { chatMode: "write", approvalPolicy: "untrusted" },
      ask: (request) => {
        asked.push(request);
        return Promise.resolve({ approved: true, byPerson: true });
      },
      scenario: (_request, index) =>
        index === 0
          ? {
              toolCalls: [
                {
                  name: "write_file",
                  arguments: { path: ".notes", content: "WRITTEN-BY-MODEL\n" },
                },
              ],
            }
          : { content: "done" },
    });
    try {
      await started.runtime.run("rewrite the notes");
    } finally {
      await started.close();
    }
    expect(asked).toHaveLength(1);
    expect(asked[0]?.input).toEqual({ path: ".notes", content: "WRITTEN-BY-HOOK\n" });
    expect(asked[0]?.summary).toContain("rewritten by a PreToolUse hook");
    expect(await readFile(path.join(fixture.workspace, ".notes"), "utf8")).toBe(
      "WRITTEN-BY-HOOK\n",
    );
  });

  it("never lets permissionDecision allow run what the policy refuses", async () => {
    const script = await fixture.script(
      "allow.sh",
      `#!/bin/sh\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'\n`,
    );
    const marker = path.join(fixture.base, "sudo-ran");
    const tool = await callWithHooks(
      { PreToolUse: hook(script) },
      { name: "terminal", arguments: { command: `sudo touch ${marker}` } },
    );
    expect(tool).toContain("Refused");
    expect(existsSync(marker)).toBe(false);
  });

  it("permissionDecision ask makes a plain read need a person's yes", async () => {
    const script = await fixture.script(
      "ask.sh",
      `#!/bin/sh\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"reads are reviewed"}}'\n`,
    );
    const tool = await callWithHooks({ PreToolUse: hook(script) });
    expect(tool).toContain("reads are reviewed");
    expect(tool).not.toContain("NOTES-CONTENT");
  });

  it("adds PreToolUse and PostToolUse context and a PostToolUse exit-2 message to the result", async () => {
    const pre = await fixture.script(
      "pre.sh",
      `#!/bin/sh\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"notes are drafts"}}'\n`,
    );
    const post = await fixture.script(
      "post.sh",
      "#!/bin/sh\ncat > /dev/null\necho 'remember the style guide' >&2\nexit 2\n",
    );
    const log = fixture.log("post.jsonl");
    const logging = await fixture.script(
      "post-log.sh",
      logTo(
        log,
        `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"checked by lint"}}'`,
      ),
    );
    const tool = await callWithHooks({
      PreToolUse: hook(pre),
      PostToolUse: [...hook(post), ...hook(logging)],
    });
    expect(tool).toContain("NOTES-CONTENT");
    expect(tool).toContain("PreToolUse hook: notes are drafts");
    expect(tool).toContain("PostToolUse hook: remember the style guide");
    const [event] = await fixture.events(log);
    expect(event).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "read_file",
      tool_response: { success: true },
    });
    expect(JSON.stringify(event?.["tool_response"])).toContain("NOTES-CONTENT");
  });
});

describe("a subagent's tool calls", () => {
  it("go through the same PreToolUse hooks as the parent's", async () => {
    const script = await fixture.script(
      "deny.sh",
      "#!/bin/sh\ncat > /dev/null\necho 'children may not read notes' >&2\nexit 2\n",
    );
    const child: ChatView[] = [];
    const started = await startHookedRuntime(fixture, {
      start: startScriptedOpenAI,
      hooks: { PreToolUse: hook(script, { matcher: "read_file" }) },
      subagents: true,
      scenario: (request) => {
        const system = request.messages.find((message) => message.role === "system")?.content;
        if (system?.includes("You are a subagent")) {
          child.push(request);
          return child.length === 1
            ? { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] }
            : { content: "child done" };
        }
        return request.messages.some((message) => message.role === "tool")
          ? { content: "parent done" }
          : {
              toolCalls: [
                { name: "subagent", arguments: { label: "reader", task_prompt: "Read notes.txt" } },
              ],
            };
      },
    });
    try {
      await started.runtime.run("delegate the reading");
    } finally {
      await started.close();
    }
    const tool = last(child[1], "tool");
    expect(tool).toContain("a PreToolUse hook refused it: children may not read notes");
    expect(tool).not.toContain("NOTES-CONTENT");
  });
});

describe("a project's hooks", () => {
  async function runInProject(): Promise<{ marker: string; tool: string }> {
    await mkdir(path.join(fixture.workspace, ".xzatoma"), { recursive: true });
    const marker = path.join(fixture.base, "project-hook-ran");
    await writeFile(
      path.join(fixture.workspace, ".xzatoma", "config.yaml"),
      `hooks:\n  PreToolUse:\n    - hooks:\n        - command: touch ${JSON.stringify(marker)}\n`,
    );
    const seen: ChatView[] = [];
    const server = await startScriptedOpenAI({
      scenario: (request, index) => {
        seen.push(request);
        return index === 0
          ? { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] }
          : { content: "done" };
      },
      apiKey: "sk-test",
      models: ["scripted-1"],
    });
    const userConfig = path.join(fixture.home, "config.yaml");
    await writeFile(
      userConfig,
      `provider:\n  type: openai\n  openai:\n    base_url: ${server.url}\n    model: scripted-1\npersistence:\n  enabled: false\n  data_dir: ${JSON.stringify(fixture.dataDir)}\n`,
    );
    try {
      const loaded = await loadConfig({
        env: { XZATOMA_CONFIG: userConfig },
        homeDir: fixture.home,
        cwd: fixture.workspace,
        projectDir: fixture.workspace,
        configPath: userConfig,
      });
      const runtime = await createAgentRuntime(
        loaded.config,
        { warn: () => undefined },
        {
          workspace: fixture.workspace,
          modes: { chatMode: "write", approvalPolicy: "never" },
          env: { OPENAI_API_KEY: "sk-test", PATH: process.env["PATH"] ?? "" },
          skills: false,
        },
      );
      try {
        await runtime.run("read the notes");
      } finally {
        await runtime.close();
      }
    } finally {
      await server.close();
    }
    return { marker, tool: last(seen[1], "tool") };
  }

  it("do not run until a person trusts the project's configuration", async () => {
    const untrusted = await runInProject();
    expect(untrusted.tool).toContain("NOTES-CONTENT");
    expect(existsSync(untrusted.marker)).toBe(false);
  });

  it("run once the project's configuration is trusted", async () => {
    await mkdir(path.join(fixture.workspace, ".xzatoma"), { recursive: true });
    const file = path.join(fixture.workspace, ".xzatoma", "config.yaml");
    const marker = path.join(fixture.base, "project-hook-ran");
    await writeFile(
      file,
      `hooks:\n  PreToolUse:\n    - hooks:\n        - command: touch ${JSON.stringify(marker)}\n`,
    );
    const project = readProjectConfig({ projectDir: fixture.workspace, dataDir: fixture.dataDir });
    if (!project) throw new Error("no project configuration found");
    openTrustStore(fixture.dataDir).trust({ file: project.path, sha256: project.sha256 });
    const trusted = await runInProject();
    expect(trusted.tool).toContain("NOTES-CONTENT");
    expect(await readFile(trusted.marker, "utf8")).toBe("");
  });
});
