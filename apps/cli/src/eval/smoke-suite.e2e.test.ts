// `xzatoma eval evals/smoke.yaml` against a scripted OpenAI-compatible model on 127.0.0.1:
// the built command, real workspaces, the real runtime and sandbox. Each failing case fails
// in its own way, and the JSON report says so field by field; a malformed suite exits 2.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  startScriptedOpenAI,
  type ScriptedOpenAI,
  type ScriptedReply,
  type ScriptedToolCall,
} from "@xzatoma/scripted-servers/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { BIN, runCli, type Outcome } from "../cli.test-support.js";
import type { EvalReport } from "./eval-report.js";
import { FAILURE_KINDS, type FailureKind } from "./failure-kind.js";

// The scripted model plays each case from the case's own `scripted:` block: the case is
// found by its prompt in the request's first user message, and its n-th reply answers the
// case's n-th model request (the last reply repeats).
const callSchema = z.strictObject({
  tool: z.string(),
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]),
});

/** One scripted reply as a suite spells it. */
const replySchema = z.union([
  z.strictObject({ text: z.string() }),
  callSchema,
  z.strictObject({ calls: z.array(callSchema), text: z.string().optional() }),
  z.strictObject({ status: z.int(), message: z.string().optional() }),
  z.strictObject({ stall: z.literal(true) }),
]);

type SuiteReply = z.output<typeof replySchema>;

const suiteSchema = z.object({
  cases: z.array(
    z.object({ id: z.string(), prompt: z.string(), scripted: z.array(replySchema).min(1) }),
  ),
});

function toCall(call: z.output<typeof callSchema>): ScriptedToolCall {
  return { name: call.tool, arguments: call.arguments };
}

function toReply(reply: SuiteReply): ScriptedReply {
  if ("stall" in reply)
    return { content: "Let me think", fault: { kind: "stall", afterChunks: 1 } };
  if ("status" in reply)
    return {
      fault: {
        kind: "status",
        status: reply.status,
        ...(reply.message === undefined ? {} : { message: reply.message }),
      },
    };
  if ("calls" in reply)
    return {
      toolCalls: reply.calls.map(toCall),
      ...(reply.text === undefined ? {} : { content: reply.text }),
    };
  if ("tool" in reply) return { toolCalls: [toCall(reply)] };
  return { content: reply.text };
}

type SuiteModel = ScriptedOpenAI;

/** Starts the scripted model of a suite file on 127.0.0.1 (every case needs `scripted:`). */
async function startSuiteModel(file: string): Promise<SuiteModel> {
  const suite = suiteSchema.parse(parse(await readFile(file, "utf8")));
  return startScriptedOpenAI({
    models: ["scripted-1"],
    scenario: (request) => {
      const firstUser = request.messages.find((message) => message.role === "user")?.content ?? "";
      const played = suite.cases.find((item) => firstUser.includes(item.prompt.trim()));
      if (!played) return { content: `No scripted case has the prompt: ${firstUser}` };
      const turn = request.messages.filter((message) => message.role === "assistant").length;
      const reply = played.scripted[Math.min(turn, played.scripted.length - 1)];
      return toReply(reply as SuiteReply);
    },
  });
}

const SUITE = fileURLToPath(new URL("../../../../evals/smoke.yaml", import.meta.url));

/** What each case of the smoke suite must come to. */
const EXPECTED: Record<string, FailureKind | "passed"> = {
  "creates-a-file": "passed",
  "reads-and-answers": "passed",
  "edits-and-checks": "passed",
  "answers-without-a-tool": "no-tool-call",
  "sends-malformed-arguments": "malformed-tool-call",
  "writes-the-call-as-text": "malformed-tool-call",
  "repeats-the-same-call": "loop",
  "runs-out-of-turns": "limit",
  "runs-out-of-time": "timeout",
  "needs-the-network": "refused",
  "meets-a-server-error": "provider-error",
  "cannot-make-its-workspace": "crash",
  "writes-the-wrong-thing": "expectation",
};

let base: string;
let home: string;
let out: string;
let model: SuiteModel;
let outcome: Outcome;
let report: EvalReport;

const eval_ = (...args: string[]) =>
  runCli(
    ["eval", ...args, "--provider", "openai", "--base-url", model.url, "--model", "scripted-1"],
    {
      cwd: base,
      env: { HOME: home, PATH: process.env["PATH"] ?? "", OPENAI_API_KEY: "sk-test" },
    },
  );

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-eval-smoke-")));
  home = path.join(base, "home");
  out = path.join(base, "out");
  await mkdir(home, { recursive: true });
  model = await startSuiteModel(SUITE);
  outcome = await eval_(SUITE, "--json", "--out", out);
  report = JSON.parse(outcome.stdout) as EvalReport;
}, 120_000);

afterAll(async () => {
  await model.close();
  await rm(base, { recursive: true, force: true });
});

const caseOf = (id: string) => {
  const found = report.cases.find((item) => item.id === id);
  if (!found) throw new Error(`no case ${id} in the report`);
  return found;
};

describe("xzatoma eval on the smoke suite", () => {
  it("exits 1 because cases failed, and reports every case in the suite's order", () => {
    expect(outcome.code).toBe(1);
    expect(report.cases.map((item) => item.id)).toEqual(Object.keys(EXPECTED));
    expect(report).toMatchObject({
      version: 1,
      suite: "smoke",
      file: SUITE,
      provider: "openai",
      model: "scripted-1",
      repeat: 1,
    });
    expect(Number.isNaN(Date.parse(report.startedAt))).toBe(false);
  });

  it("gives each case the failure kind it was written to produce, so every kind appears", () => {
    for (const [id, expected] of Object.entries(EXPECTED)) {
      const run = caseOf(id).runs[0];
      expect({ id, outcome: run?.failure?.kind ?? "passed" }).toEqual({ id, outcome: expected });
    }
    const produced = new Set(
      report.cases.flatMap((item) => item.runs.map((run) => run.failure?.kind)),
    );
    for (const kind of FAILURE_KINDS) expect(produced).toContain(kind);
  });

  it("reports a passed case field by field: turns, tool calls, tokens, wall time, the answer", () => {
    const item = caseOf("creates-a-file");
    expect(item).toMatchObject({ id: "creates-a-file", passed: true, passRate: 1 });
    expect(item.runs).toHaveLength(1);
    const run = item.runs[0];
    expect(run).toMatchObject({
      attempt: 1,
      passed: true,
      turns: 2,
      toolCalls: 1,
      answer: "Created hello.txt.",
    });
    expect(run?.failure).toBeUndefined();
    expect(run?.tokens.total).toBe((run?.tokens.input ?? 0) + (run?.tokens.output ?? 0));
    expect(run?.tokens.input).toBeGreaterThan(0);
    expect(run?.durationMs).toBeGreaterThanOrEqual(0);
    expect(caseOf("edits-and-checks").runs[0]).toMatchObject({ turns: 3, toolCalls: 2 });
  });

  it("says in each failure's detail what went wrong", () => {
    const detail = (id: string) => caseOf(id).runs[0]?.failure?.detail ?? "";
    expect(detail("answers-without-a-tool")).toBe(
      "the model answered without calling a tool; answer.txt does not exist",
    );
    expect(detail("sends-malformed-arguments")).toBe(
      "invalid arguments for write_file; data.json does not exist",
    );
    expect(detail("writes-the-call-as-text")).toContain("wrote a tool call as text");
    expect(detail("repeats-the-same-call")).toBe("the model repeated the same tool call");
    expect(detail("runs-out-of-turns")).toBe("stopped by the limit 'max-turns'");
    expect(detail("needs-the-network")).toMatch(/^terminal was refused \(.*network/);
    expect(detail("meets-a-server-error")).toMatch(
      /^PROVIDER_ERROR: .*The model does not accept this request\./,
    );
    expect(detail("cannot-make-its-workspace")).toMatch(/^UNEXPECTED: /);
    expect(detail("writes-the-wrong-thing")).toBe('greeting.txt does not contain "hi"');
    expect(caseOf("runs-out-of-turns").runs[0]).toMatchObject({ turns: 2, toolCalls: 2 });
  });

  it("sums up: cases passed of total, the pass rate, means, failures by kind", () => {
    const runs = report.cases.flatMap((item) => item.runs);
    const mean = (values: number[]) =>
      Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10) / 10;
    expect(report.summary).toEqual({
      cases: 13,
      passed: 3,
      runs: 13,
      runsPassed: 3,
      passRate: 0.231,
      meanTurns: mean(runs.map((run) => run.turns)),
      meanTokens: mean(runs.map((run) => run.tokens.total)),
      meanToolCalls: mean(runs.map((run) => run.toolCalls)),
      meanDurationMs: report.summary.meanDurationMs,
      failures: {
        "no-tool-call": 1,
        "malformed-tool-call": 2,
        loop: 1,
        limit: 1,
        timeout: 1,
        refused: 1,
        "provider-error": 1,
        crash: 1,
        expectation: 1,
      },
    });
  });

  it("writes the report, a Markdown page and an SVG chart into --out", async () => {
    expect(JSON.parse(await readFile(path.join(out, "report.json"), "utf8"))).toEqual(report);
    const markdown = await readFile(path.join(out, "report.md"), "utf8");
    expect(markdown).toContain("**3 of 13 cases passed**; pass rate 23.1% (3 of 13 runs)");
    expect(markdown).toContain("![Pass rate per case and failures by kind](chart.svg)");
    expect(markdown).toMatch(
      /^\| creates-a-file \| yes \| 100% \| 2 \| 1 \| \d+ \| \d+\.\d \| {2}\|$/m,
    );
    expect(markdown).toMatch(/^\| runs-out-of-time \| no \| 0% \| .* \| timeout \|$/m);
    expect(markdown).toContain("| malformed-tool-call | 2 |");
    const chart = await readFile(path.join(out, "chart.svg"), "utf8");
    expect(chart.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(chart.trimEnd().endsWith("</svg>")).toBe(true);
    for (const id of Object.keys(EXPECTED)) expect(chart).toContain(`<title>${id}: `);
    expect(chart).toContain("<title>malformed-tool-call: 2</title>");
  });

  it("prints progress on stderr beside --json, one line per run with its failure", () => {
    expect(outcome.stderr).toContain(
      `eval smoke (${SUITE}) with openai scripted-1, 1 run per case`,
    );
    expect(outcome.stderr).toMatch(
      /^ok {3}creates-a-file \(2 turns, 1 tool call, \d+ tokens, \d+\.\d s\)$/m,
    );
    expect(outcome.stderr).toMatch(/^FAIL runs-out-of-time .*\n {7}timeout: /m);
  });

  it("exits 0 when every case it runs passes, repeating each with --repeat; compare shows what changed", async () => {
    const passing = await eval_(
      SUITE,
      "--case",
      "creates-a-file",
      "--case",
      "reads-and-answers",
      "--repeat",
      "2",
      "--out",
      path.join(base, "passing"),
    );
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain("ok" + " ".repeat(3) + "creates-a-file #2 (");
    expect(passing.stdout).toContain("2 of 2 cases passed; pass rate 100% (4 of 4 runs)");
    const compared = await runCli(
      ["eval", "compare", path.join(out, "report.json"), path.join(base, "passing", "report.json")],
      { cwd: base, env: { HOME: home, PATH: process.env["PATH"] ?? "" } },
    );
    expect(compared.code).toBe(0);
    expect(compared.stdout).toContain("pass rate 23.1% -> 100%; cases passed 3 -> 2");
    expect(compared.stdout).toMatch(/^only-before answers-without-a-tool 0%$/m);
    expect(compared.stdout).not.toMatch(/creates-a-file/);
    // The same suite where one case used to pass: it shows as broken, with its kind now.
    const earlier = structuredClone(report) as unknown as {
      cases: { id: string; passRate: number; runs: unknown[] }[];
    };
    const wrong = earlier.cases.find((item) => item.id === "writes-the-wrong-thing");
    if (wrong) Object.assign(wrong, { passRate: 1, runs: [{}] });
    await writeFile(path.join(base, "earlier.json"), JSON.stringify(earlier));
    const broken = await runCli(
      ["eval", "compare", path.join(base, "earlier.json"), path.join(out, "report.json"), "--json"],
      { cwd: base, env: { HOME: home, PATH: process.env["PATH"] ?? "" } },
    );
    expect(broken.code).toBe(0);
    expect(JSON.parse(broken.stdout)).toMatchObject({
      cases: [
        {
          id: "writes-the-wrong-thing",
          change: "broken",
          before: 1,
          after: 0,
          kindsAfter: ["expectation"],
        },
      ],
    });
  });

  it("refuses a malformed suite with exit 2, naming the file, the case and the field", async () => {
    const broken = path.join(base, "broken.yaml");
    await writeFile(
      broken,
      "name: broken\ncases:\n  - id: fine\n    prompt: ok\n  - id: makes-hello\n    prompt: Create hello.txt.\n    expect: { files: { hello.txt: { contain: hi } } }\n",
    );
    const refused = await eval_(broken);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(`error: ${broken}: not a valid eval suite:`);
    expect(refused.stderr).toContain(
      "case 'makes-hello', field expect.files.hello.txt: Unrecognized key: \"contain\"",
    );
    expect(
      model.chatRequests.filter((request) => JSON.stringify(request).includes("Create hello.txt.")),
    ).toHaveLength(0);
  });

  it("stops on SIGTERM: the case in flight ends, no other starts, the report keeps what finished, exit 143", async () => {
    const suite = path.join(base, "interrupted.yaml");
    await writeFile(
      suite,
      [
        "name: interrupted",
        "cases:",
        "  - { id: quick, prompt: 'Say done.', expect: { answer: { contains: done } }, scripted: [{ text: done }] }",
        "  - { id: stalls, prompt: 'Wait for ever.', limits: { timeout_seconds: 600 }, scripted: [{ stall: true }] }",
        "  - { id: never-starts, prompt: 'Never asked.', scripted: [{ text: never }] }",
        "",
      ].join("\n"),
    );
    const stalling = await startSuiteModel(suite);
    const temporary = path.join(base, "tmp");
    await mkdir(temporary, { recursive: true });
    try {
      const child = spawn(
        process.execPath,
        [
          BIN,
          "eval",
          suite,
          "--json",
          "--provider",
          "openai",
          "--base-url",
          stalling.url,
          "--model",
          "scripted-1",
        ],
        {
          cwd: base,
          env: {
            HOME: home,
            PATH: process.env["PATH"] ?? "",
            OPENAI_API_KEY: "sk-test",
            TMPDIR: temporary,
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
      // Signal once the stalling case's request has reached the model.
      while (
        !stalling.chatRequests.some((request) => JSON.stringify(request).includes("Wait for ever."))
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      child.kill("SIGTERM");
      expect(await closed).toBe(143);
      const partial = JSON.parse(stdout) as EvalReport;
      expect(partial.interrupted).toBe(true);
      expect(partial.cases.map((item) => item.id)).toEqual(["quick"]);
      expect(partial.summary).toMatchObject({ cases: 1, passed: 1, runs: 1 });
      expect(stderr).toContain("interrupted: the report holds the runs that finished");
      expect(
        stalling.chatRequests.some((request) => JSON.stringify(request).includes("Never asked.")),
      ).toBe(false);
      // The stopped case's workspace and data directory are gone too.
      expect(await readdir(temporary)).toEqual([]);
    } finally {
      await stalling.close();
    }
  });
});
