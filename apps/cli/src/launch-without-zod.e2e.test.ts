// A run whose configuration is fine and whose model calls no tool, or calls tools with valid
// input, loads no zod: the configuration and each tool call's input are read by readers
// generated from the zod schemas; a tool's zod schema loads only for an input the reader is
// not sure of (an invalid one, which zod reports), a plan's with the plan
// (docs/explanation/launch-path.md). Checked on the built CLI by
// recording every module Node loads (a module hook given with --import) and looking in each
// of the bundle's files for zod's own code.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  SCENARIOS,
  startScriptedOllama,
  type Scenario,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { runCli } from "./cli.test-support.js";

/** A string zod's core writes for its base type: in zod's code, in no XZatoma module. */
const ZOD_MARKER = '"$ZodType"';

let base: string;
let ollama: ScriptedOllama;
const callers: ScriptedOllama[] = [];

/** A model that makes one tool call and then answers with the start of what it returned. */
function oneCall(name: string, args: Record<string, unknown>): Scenario {
  return (request) => {
    const result = request.messages.find((message) => message.role === "tool");
    if (result === undefined) return { toolCalls: [{ name, arguments: args }] };
    return { content: `The tool said: ${String(result.content).slice(0, 200)}` };
  };
}

/** A scripted model server for {@link oneCall}, closed after the tests. */
async function modelCalling(name: string, args: Record<string, unknown>): Promise<string> {
  const server = await startScriptedOllama({ scenario: oneCall(name, args) });
  callers.push(server);
  return server.url;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-launch-without-zod-")));
  await mkdir(path.join(base, "home"), { recursive: true });
  await mkdir(path.join(base, "project"));
  await writeFile(
    path.join(base, "record-modules.mjs"),
    `import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
const file = process.env.XZ_TEST_LOADED_MODULES;
registerHooks({
  load(url, context, nextLoad) {
    appendFileSync(file, url + "\\n");
    return nextLoad(url, context);
  },
});
`,
  );
  ollama = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
});

afterAll(async () => {
  await ollama.close();
  for (const server of callers) await server.close();
  await rm(base, { recursive: true, force: true });
});

/** The files of the bundle one command loaded, and which of them hold zod's code. */
async function zodLoadedBy(
  args: readonly string[],
): Promise<{ files: string[]; zod: string[]; stdout: string }> {
  const record = path.join(base, `loaded-${args.join("-").replace(/\W+/g, "_")}.txt`);
  await writeFile(record, "");
  const outcome = await runCli(args, {
    cwd: path.join(base, "project"),
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: path.join(base, "home"),
      XZATOMA_HOME: path.join(base, "data"),
      NODE_OPTIONS: `--import=${path.join(base, "record-modules.mjs")}`,
      XZ_TEST_LOADED_MODULES: record,
    },
  });
  expect(outcome.code, outcome.stderr).toBe(0);
  const files = (await readFile(record, "utf8"))
    .split("\n")
    .filter((url) => url.startsWith("file:") && url.includes("/dist/"))
    .map((url) => fileURLToPath(url));
  const zod: string[] = [];
  for (const file of files) {
    if ((await readFile(file, "utf8")).includes(ZOD_MARKER)) zod.push(path.basename(file));
  }
  return { files, zod, stdout: outcome.stdout };
}

it("runs a prompt to its answer without loading zod", async () => {
  const { files, zod } = await zodLoadedBy(["run", "--host", ollama.url, "--prompt", "hello"]);
  expect(files.length).toBeGreaterThan(3);
  expect(zod).toEqual([]);
});

it("loads zod with a plan to validate (the check can see it)", async () => {
  await writeFile(
    path.join(base, "project", "plan.yaml"),
    "goal: greet\ninstructions:\n  - say hello\n",
  );
  const { zod } = await zodLoadedBy(["run", "--host", ollama.url, "--plan", "plan.yaml"]);
  expect(zod.length).toBeGreaterThan(0);
});

it("runs a valid read_file call and a valid grep call without loading zod", async () => {
  await writeFile(path.join(base, "project", "notes.txt"), "remember the milk\n");
  const read = await zodLoadedBy([
    "run",
    "--host",
    await modelCalling("read_file", { path: "notes.txt" }),
    "--prompt",
    "read notes.txt",
  ]);
  expect(read.stdout).toContain("remember the milk");
  expect(read.zod).toEqual([]);

  const grep = await zodLoadedBy([
    "run",
    "--host",
    await modelCalling("grep", { pattern: "milk", path: "." }),
    "--prompt",
    "find milk",
  ]);
  expect(grep.stdout).toContain("notes.txt");
  expect(grep.zod).toEqual([]);
});

it("loads zod for an invalid tool call, whose problem zod reports (the check can see it)", async () => {
  const { zod, stdout } = await zodLoadedBy([
    "run",
    "--host",
    await modelCalling("read_file", { path: "notes.txt", start_line: 0 }),
    "--prompt",
    "read notes.txt",
  ]);
  expect(stdout).toMatch(/Invalid input for 'read_file': start_line/);
  expect(zod.length).toBeGreaterThan(0);
});
