// What `xzatoma eval` costs per case beyond the model's own time: a generated suite of
// CASES cases (half answer at once, half write a file then answer) against a scripted
// OpenAI-compatible model that answers each request after exactly DELAY ms. A case's
// overhead is its wall time (fresh workspace and data directory, runtime, run, checks,
// clean-up) minus turns x DELAY. Reports the median and p90 per kind of case, and the
// whole process beside `xzatoma --version` (start-up).
//
//   node bench/eval-overhead.ts [--cases N] [--delay MS]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startScriptedOpenAI } from "../tools/scripted-servers/openai-server.ts";
import { CLI, median, run } from "./measure.ts";

const { values: options } = parseArgs({
  options: { cases: { type: "string", default: "20" }, delay: { type: "string", default: "100" } },
});
const CASES = Number(options.cases);
const DELAY = Number(options.delay);

interface Run {
  turns: number;
  durationMs: number;
  passed: boolean;
}

const directory = mkdtempSync(path.join(tmpdir(), "xz-bench-eval-"));
const lines = ["name: overhead", "cases:"];
for (let index = 0; index < CASES; index += 1) {
  const writes = index % 2 === 1;
  lines.push(
    `  - id: case-${index}`,
    `    prompt: "${writes ? "write" : "answer"} ${index}"`,
    `    workspace: { README.md: "# case ${index}\\n" }`,
    writes
      ? `    expect: { files: { out-${index}.txt: { equals: "${index}\\n" } } }`
      : `    expect: { answer: { contains: "answer ${index}" } }`,
  );
}
const suite = path.join(directory, "overhead.yaml");
writeFileSync(suite, `${lines.join("\n")}\n`);

const server = await startScriptedOpenAI({
  models: ["scripted-1"],
  scenario: (request) => {
    const prompt = request.messages.find((message) => message.role === "user")?.content ?? "";
    const [verb, index] = prompt.split(" ");
    const turn = request.messages.filter((message) => message.role === "assistant").length;
    if (verb === "write" && turn === 0)
      return {
        delayMs: DELAY,
        toolCalls: [
          { name: "write_file", arguments: { path: `out-${index}.txt`, content: `${index}\n` } },
        ],
      };
    return { delayMs: DELAY, content: `Done: answer ${index}.` };
  },
});

const env = {
  HOME: directory,
  PATH: process.env["PATH"] ?? "",
  OPENAI_API_KEY: "sk-bench",
};
try {
  const version = await run(process.execPath, [CLI, "--version"], env, directory);
  const result = await run(
    process.execPath,
    [
      CLI,
      "eval",
      suite,
      "--json",
      "--provider",
      "openai",
      "--base-url",
      server.url,
      "--model",
      "scripted-1",
    ],
    env,
    directory,
  );
  if (result.code !== 0) throw new Error(`eval exited ${String(result.code)}: ${result.stderr}`);
  const report = JSON.parse(result.stdout) as { cases: { id: string; runs: Run[] }[] };
  const runs = report.cases.flatMap((item) => item.runs);
  const p90 = (values: number[]) =>
    [...values].sort((a, b) => a - b)[
      Math.min(values.length - 1, Math.floor(values.length * 0.9))
    ] ?? 0;
  const row = (label: string, selected: Run[]) => {
    const overhead = selected.map((item) => item.durationMs - item.turns * DELAY);
    return `${label.padEnd(34)} ${String(selected.length).padStart(3)} cases  median ${median(overhead).toFixed(0).padStart(4)} ms  p90 ${p90(overhead).toFixed(0).padStart(4)} ms`;
  };
  console.log(`eval overhead per case beyond the model's time (model answers after ${DELAY} ms)`);
  console.log(
    row(
      "answer (1 turn)",
      runs.filter((item) => item.turns === 1),
    ),
  );
  console.log(
    row(
      "write a file, answer (2 turns)",
      runs.filter((item) => item.turns === 2),
    ),
  );
  console.log(row("all", runs));
  console.log(
    `whole process: ${result.wallMs.toFixed(0)} ms for ${runs.length} cases (${runs.filter((item) => item.passed).length} passed); xzatoma --version ${version.wallMs.toFixed(0)} ms`,
  );
} finally {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
}
