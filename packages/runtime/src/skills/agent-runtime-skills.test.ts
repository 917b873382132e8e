import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  startScriptedOpenAI,
  type ChatScenario,
  type ChatView,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentRuntime } from "../agent-runtime.js";
import { resolveRuntimeConfig } from "../resolve-config.js";
import { openTrustStore } from "./skill-trust.js";
import { discoverSkills } from "./discover-skills.js";

let base: string;
let home: string;
let workspace: string;
let server: ScriptedOpenAI | undefined;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "xz-runtime-skills-"));
  home = path.join(base, "home");
  workspace = path.join(base, "workspace");
  await mkdir(path.join(workspace, ".git"), { recursive: true });
  await mkdir(home, { recursive: true });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(base, { recursive: true, force: true });
});

async function writeSkill(root: string, name: string, body: string): Promise<string> {
  await mkdir(path.join(root, name), { recursive: true });
  const file = path.join(root, name, "SKILL.md");
  await writeFile(file, `---\nname: ${name}\ndescription: How to ${name}.\n---\n${body}\n`);
  return file;
}

/** Runs one prompt against a scripted model; returns every request the model saw. */
async function runWith(scenario: ChatScenario, prompt: string) {
  const seen: ChatView[] = [];
  server = await startScriptedOpenAI({
    scenario: (request, index) => {
      seen.push(request);
      return scenario(request, index);
    },
    apiKey: "sk-test",
    models: ["scripted-1"],
  });
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: server.url, model: "scripted-1" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, "data"), enabled: false },
    },
    { homeDir: home, env: {} },
  );
  const warnings: string[] = [];
  const runtime = await createAgentRuntime(
    config,
    { warn: (message) => warnings.push(message) },
    {
      workspace,
      modes: { chatMode: "write", approvalPolicy: "never" },
      env: { OPENAI_API_KEY: "sk-test" },
      skills: { homeDir: home },
    },
  );
  try {
    const result = await runtime.run(prompt);
    return { seen, warnings, result };
  } finally {
    await runtime.close();
  }
}

const systemOf = (request: ChatView | undefined) =>
  request?.messages.find((m) => m.role === "system")?.content ?? "";

describe("skills in a session", () => {
  it("offers a user skill by description, and its body reaches the request after the model activates it", async () => {
    await writeSkill(
      path.join(home, ".xzatoma", "skills"),
      "release",
      "BODY-MARKER-7: tag, then push.",
    );
    const { seen, result } = await runWith(
      (_request, index) =>
        index === 0
          ? { toolCalls: [{ name: "skill", arguments: { name: "release" } }] }
          : { content: "done" },
      "Cut a release",
    );

    expect(result.stopReason).toBe("completed");
    expect(seen[0]?.tools).toContain("skill");
    expect(systemOf(seen[0])).toContain("- release: How to release.");
    expect(JSON.stringify(seen[0]?.messages)).not.toContain("BODY-MARKER-7");
    const tool = seen[1]?.messages.findLast((m) => m.role === "tool");
    expect(tool?.content).toContain("BODY-MARKER-7: tag, then push.");
  });

  it("loads a skill the person names with $name into the prompt", async () => {
    await writeSkill(path.join(home, ".agents", "skills"), "review", "REVIEW-MARKER steps.");
    const { seen } = await runWith(() => ({ content: "ok" }), "Please $review the change");
    const user = seen[0]?.messages.findLast((m) => m.role === "user")?.content ?? "";
    expect(user).toContain("REVIEW-MARKER steps.");
    expect(user).toContain("Please $review the change");
  });

  it("does not offer an untrusted project skill in an unattended run, and says how to trust it", async () => {
    await writeSkill(path.join(workspace, ".xzatoma", "skills"), "deploy", "PROJECT-MARKER.");
    const { seen, warnings } = await runWith(() => ({ content: "ok" }), "Deploy $deploy");

    expect(seen[0]?.tools).not.toContain("skill");
    expect(JSON.stringify(seen[0]?.messages)).not.toContain("PROJECT-MARKER");
    expect(systemOf(seen[0])).not.toContain("deploy:");
    expect(warnings.join("\n")).toContain("no person has trusted this content");
  });

  it("offers a trusted project skill until its file changes", async () => {
    const file = await writeSkill(path.join(workspace, ".agents", "skills"), "deploy", "V1.");
    const trust = openTrustStore(path.join(home, "data"));
    for (const skill of discoverSkills({ workspace, homeDir: home }).skills) trust.trust(skill);

    const trusted = await runWith(() => ({ content: "ok" }), "go");
    expect(systemOf(trusted.seen[0])).toContain("- deploy: How to deploy.");
    await server?.close();

    await writeFile(file, "---\nname: deploy\ndescription: How to deploy.\n---\nV2, changed.\n");
    const changed = await runWith(() => ({ content: "ok" }), "go");
    expect(changed.seen[0]?.tools).not.toContain("skill");
    expect(systemOf(changed.seen[0])).not.toContain("deploy:");
  });
});
