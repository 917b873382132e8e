import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  startScriptedOpenAI,
  type ChatScenario,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/xzatoma-watcher.js", import.meta.url));

let home: string;
let workspace: string;
let server: ScriptedOpenAI | undefined;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-watcher-home-"));
  workspace = await mkdtemp(path.join(os.tmpdir(), "xz-watcher-ws-"));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

/** Runs the watcher without blocking the event loop the scripted server answers on. */
function watcher(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env["PATH"], HOME: home, OPENAI_API_KEY: "sk-test", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** An XZepr event whose first event's payload carries `plan`. */
async function eventFile(plan: unknown): Promise<string> {
  const file = path.join(home, "event.json");
  await writeFile(
    file,
    JSON.stringify({
      success: true,
      id: "01JXZEPR0TEST00000000000001",
      specversion: "1.0.1",
      type: "build.success",
      source: "xzepr.event.receiver.test",
      api_version: "v1",
      name: "build.success",
      version: "1.0.0",
      release: "1.0.0",
      platform_id: "local",
      package: "demo",
      data: {
        events: [
          {
            id: "01JXZEPR0TEST00000000000002",
            name: "verify",
            version: "1.0.0",
            release: "1.0.0",
            platform_id: "local",
            package: "demo",
            description: "verify",
            payload: { plan: JSON.stringify(plan) },
            success: true,
            event_receiver_id: "r1",
            created_at: "2025-07-15T14:00:00Z",
          },
        ],
        event_receivers: [],
        event_receiver_groups: [],
      },
    }),
  );
  return file;
}

async function configFile(url: string): Promise<string> {
  const file = path.join(home, "config.yaml");
  await writeFile(
    file,
    [
      "provider:",
      "  type: openai",
      "  openai:",
      `    base_url: ${url}`,
      "    model: scripted-1",
      "agent:",
      "  terminal:",
      "    sandbox: false",
      "persistence:",
      `  data_dir: ${path.join(home, "data")}`,
      "",
    ].join("\n"),
  );
  return file;
}

const PLAN = {
  name: "build-verify",
  description: "Verify the build.",
  tasks: [{ id: "t1", description: "Create the file made-by-agent.txt." }],
  allow_dangerous: true,
};

describe("xzatoma-watcher run-event", () => {
  it("runs the event's plan through the agent runtime and prints the result as JSON", async () => {
    const scenario: ChatScenario = () => ({ content: "Verified: the build is fine." });
    server = await startScriptedOpenAI({ scenario, apiKey: "sk-test", models: ["scripted-1"] });
    const result = await watcher([
      "run-event",
      await eventFile(PLAN),
      "--workspace",
      workspace,
      "--config",
      await configFile(server.url),
      "--json",
    ]);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({
      event: "01JXZEPR0TEST00000000000001",
      stopReason: "completed",
      text: "Verified: the build is fine.",
    });
    expect(summary["conversationId"]).toEqual(expect.any(String));
    // The plan reached the model as a plan: its name and task, not the raw JSON text.
    const sent = JSON.stringify(server.chatRequests[0]?.messages);
    expect(sent).toContain("build-verify");
    expect(sent).toContain("Create the file made-by-agent.txt.");
    expect(sent).not.toContain('\\"allow_dangerous\\"');
  });

  it("gives the payload no privileges: allow_dangerous in the plan does not let a command run unasked", async () => {
    const scenario: ChatScenario = (_request, index) =>
      index === 0
        ? { toolCalls: [{ name: "terminal", arguments: { command: "touch made-by-agent.txt" } }] }
        : { content: "done" };
    server = await startScriptedOpenAI({ scenario, apiKey: "sk-test", models: ["scripted-1"] });
    const result = await watcher([
      "run-event",
      await eventFile(PLAN),
      "--workspace",
      workspace,
      "--config",
      await configFile(server.url),
      "--json",
    ]);
    expect(result.code).toBe(0);
    expect(existsSync(path.join(workspace, "made-by-agent.txt"))).toBe(false);
    const toolReply = server.chatRequests[1]?.messages.find((message) => message.role === "tool");
    expect(JSON.stringify(toolReply?.content)).toMatch(
      /no one is asked here \(approval policy: never\)/,
    );
  });

  it("says which file holds no plan, and exits 1", async () => {
    const file = path.join(home, "event.json");
    await writeFile(file, JSON.stringify({ nonsense: true }));
    const result = await watcher(["run-event", file, "--workspace", workspace]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(file);
  });

  it("loads its configuration as the CLI does: a missing --config file, a credential in the file and XZATOMA_CONFIG are each named", async () => {
    const file = await eventFile(PLAN);
    const missing = path.join(home, "missing.yaml");
    const absent = await watcher([
      "run-event",
      file,
      "--workspace",
      workspace,
      "--config",
      missing,
    ]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain(missing);
    expect(absent.stderr).toContain("--config");
    expect(absent.stderr).not.toMatch(/ENOENT/);

    const withKey = path.join(home, "with-key.yaml");
    await writeFile(withKey, "provider:\n  type: openai\n  openai:\n    api_key: sk-in-the-file\n");
    const credential = await watcher([
      "run-event",
      file,
      "--workspace",
      workspace,
      "--config",
      withKey,
    ]);
    expect(credential.code).toBe(1);
    expect(credential.stderr).toContain(withKey);
    expect(credential.stderr).toContain("OPENAI_API_KEY");
    expect(credential.stderr).not.toContain("sk-in-the-file");

    server = await startScriptedOpenAI({
      scenario: () => ({ content: "from the file XZATOMA_CONFIG names" }),
      apiKey: "sk-test",
      models: ["scripted-1"],
    });
    const viaVariable = await configFile(server.url);
    const run = await watcher(["run-event", file, "--workspace", workspace, "--json"], {
      XZATOMA_CONFIG: viaVariable,
    });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      stopReason: "completed",
      text: "from the file XZATOMA_CONFIG names",
    });
  });
});
