// Hooks, skills and custom commands: (1) the overhead of one no-op PreToolUse hook per tool
// call (`true`, and a shell script that reads the event), through a real tool registry, 200
// calls with and without, alternating; (2) the start-up time createAgentRuntime adds with 50
// skills and 20 custom commands installed in the user's roots (target < 10 ms), median of 30
// alternating creations, and the discovery alone; (3) the bytes the skills add to the first
// request's system prompt (and the skill tool's definition) as the scripted model receives
// them. Against the built packages: `node bench/hooks.ts`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolRegistry } from "../packages/core/dist/index.js";
import {
  createAgentRuntime,
  createHookRunner,
  discoverCommands,
  hooksConfigSchema,
  loadSessionSkills,
  resolveRuntimeConfig,
  withHooks,
} from "../packages/runtime/dist/index.js";
import { startScriptedOpenAI, type ChatView } from "../tools/scripted-servers/openai-server.ts";
import { createReadFileTool, createWorkspaceContext } from "../packages/tools/dist/index.js";
import { median } from "./measure.ts";

const CALLS = 200;
const CREATIONS = 30;
const base = mkdtempSync(path.join(tmpdir(), "xz-bench-hooks-"));
const workspace = path.join(base, "workspace");
const emptyHome = path.join(base, "empty-home");
const fullHome = path.join(base, "home");
for (const directory of [workspace, emptyHome, fullHome]) mkdirSync(directory, { recursive: true });

// --- (1) hook overhead per tool call ---------------------------------------------------
const script = path.join(base, "noop-hook.sh");
writeFileSync(script, "#!/bin/sh\ncat > /dev/null\nexit 0\n");
chmodSync(script, 0o755);
// The read_file tool on a one-line file: the cheapest real call, so the hook dominates.
writeFileSync(path.join(workspace, "notes.txt"), "notes\n");
const readFile = createReadFileTool(createWorkspaceContext({ root: workspace }));
function registryWith(command: string | undefined) {
  const registry = createToolRegistry();
  const hooks = hooksConfigSchema.parse(
    command ? { PreToolUse: [{ matcher: "read_file", hooks: [{ command }] }] } : {},
  );
  const runner = createHookRunner({
    hooks,
    cwd: base,
    workspace,
    env: { PATH: process.env["PATH"] ?? "" },
    sessionId: () => "bench",
  });
  registry.register(withHooks(readFile, runner));
  return registry;
}
async function perCall(registry: ReturnType<typeof createToolRegistry>): Promise<number[]> {
  const signal = new AbortController().signal;
  const times: number[] = [];
  for (let call = 0; call < CALLS; call += 1) {
    const started = performance.now();
    const result = await registry.execute(
      { toolCallId: `c${call}`, toolName: "read_file", input: '{"path":"notes.txt"}' },
      { signal },
    );
    times.push(performance.now() - started);
    if (!result.success) throw new Error(`the call failed: ${result.error}`);
  }
  return times;
}
const plain = registryWith(undefined);
const withTrue = registryWith("true");
const withScript = registryWith(script);
const samples = { plain: [] as number[], true: [] as number[], script: [] as number[] };
for (let round = 0; round < 3; round += 1) {
  samples.plain.push(...(await perCall(plain)));
  samples.true.push(...(await perCall(withTrue)));
  samples.script.push(...(await perCall(withScript)));
}
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)]!;
console.log(`hook overhead per tool call (${samples.plain.length} calls each, in process):`);
console.log(`  no hook:                    median ${median(samples.plain).toFixed(3)} ms`);
for (const [name, values] of [
  ["PreToolUse `true`", samples.true],
  ["PreToolUse sh script (cat)", samples.script],
] as const) {
  console.log(
    `  ${`${name}:`.padEnd(28)}median ${median(values).toFixed(2)} ms, p90 ${p90(values).toFixed(2)} ms, added ${(median(values) - median(samples.plain)).toFixed(2)} ms`,
  );
}

// --- (2) start-up with 50 skills and 20 commands ---------------------------------------
for (let index = 0; index < 50; index += 1) {
  const directory = path.join(fullHome, ".xzatoma", "skills", `skill-${index}`);
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    path.join(directory, "SKILL.md"),
    `---\nname: skill-${index}\ndescription: Use when the task is about area ${index} of the product; explains the conventions and the checks to run.\n---\n# Skill ${index}\n\n${"Step by step instructions for this area of the product.\n".repeat(40)}`,
  );
  writeFileSync(path.join(directory, "reference.md"), "More detail.\n");
}
for (let index = 0; index < 20; index += 1) {
  const directory = path.join(fullHome, ".xzatoma", "commands", index < 10 ? "" : "team");
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    path.join(directory, `command-${index}.md`),
    `---\ndescription: Command ${index}\n---\nDo task ${index} for $ARGUMENTS.\n`,
  );
}
const server = await startScriptedOpenAI({
  scenario: () => ({ content: "ok" }),
  apiKey: "sk-bench",
  models: ["m"],
});
async function create(homeDir: string) {
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: server.url, model: "m" } },
      agent: { terminal: { sandbox: false } },
      persistence: { enabled: false, data_dir: path.join(base, "data") },
    },
    { homeDir, env: {} },
  );
  const started = performance.now();
  const runtime = await createAgentRuntime(
    config,
    { warn: () => undefined },
    {
      workspace,
      modes: { chatMode: "write", approvalPolicy: "never" },
      env: { OPENAI_API_KEY: "sk-bench", PATH: process.env["PATH"] ?? "" },
      skills: { homeDir },
    },
  );
  const ms = performance.now() - started;
  return { runtime, ms };
}
const creations = { empty: [] as number[], full: [] as number[] };
let offered = 0;
let commands = 0;
for (let round = 0; round < CREATIONS + 3; round += 1) {
  for (const [kind, homeDir] of [
    ["empty", emptyHome],
    ["full", fullHome],
  ] as const) {
    const { runtime, ms } = await create(homeDir);
    if (kind === "full") {
      offered = runtime.skills.length;
      commands = runtime.customCommands.length;
    }
    await runtime.close();
    if (round >= 3) creations[kind].push(ms);
  }
}
const discovery: number[] = [];
for (let round = 0; round < CREATIONS; round += 1) {
  const started = performance.now();
  loadSessionSkills({ workspace, homeDir: fullHome, dataDir: path.join(base, "data") });
  discoverCommands({ workspace, homeDir: fullHome, dataDir: path.join(base, "data") });
  discovery.push(performance.now() - started);
}
console.log(
  `\nstart-up (createAgentRuntime, median of ${CREATIONS}, alternating) with ${offered} skills and ${commands} commands:`,
);
console.log(`  no skills or commands: ${median(creations.empty).toFixed(2)} ms`);
console.log(`  50 skills, 20 commands: ${median(creations.full).toFixed(2)} ms`);
console.log(
  `  added: ${(median(creations.full) - median(creations.empty)).toFixed(2)} ms (target < 10 ms); discovery alone ${median(discovery).toFixed(2)} ms`,
);

// --- (3) system prompt bytes per skill -------------------------------------------------
async function firstRequest(homeDir: string): Promise<{ system: number; tools: number }> {
  let seen: ChatView | undefined;
  const local = await startScriptedOpenAI({
    scenario: (request) => {
      seen = request;
      return { content: "ok" };
    },
    apiKey: "sk-bench",
    models: ["m"],
  });
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: local.url, model: "m" } },
      agent: { terminal: { sandbox: false } },
      persistence: { enabled: false, data_dir: path.join(base, "data") },
    },
    { homeDir, env: {} },
  );
  const runtime = await createAgentRuntime(
    config,
    { warn: () => undefined },
    {
      workspace,
      modes: { chatMode: "write", approvalPolicy: "never" },
      env: { OPENAI_API_KEY: "sk-bench", PATH: process.env["PATH"] ?? "" },
      skills: { homeDir },
    },
  );
  await runtime.run("hello");
  await runtime.close();
  await local.close();
  const body = JSON.stringify((seen?.body as { tools?: unknown } | undefined)?.tools ?? []);
  const system = seen?.messages.find((message) => message.role === "system")?.content ?? "";
  return { system: Buffer.byteLength(system), tools: Buffer.byteLength(body) };
}
const without = await firstRequest(emptyHome);
const withSkills = await firstRequest(fullHome);
const added = withSkills.system - without.system;
console.log(
  `\nfirst request's system prompt: ${without.system} B without skills, ${withSkills.system} B with 50`,
);
console.log(
  `  added: ${added} B, ${(added / 50).toFixed(0)} B per skill (catalog budget 8 KiB); the skill tool's definition adds ${withSkills.tools - without.tools} B of tool definitions once`,
);

await server.close();
rmSync(base, { recursive: true, force: true });
