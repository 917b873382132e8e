// Subagents: (1) the overhead of one subagent call beyond its model request (target < 5 ms):
// 50 delegations, each child answering at once, against 50 list_directory calls in the same
// top-level conversation (the difference per call includes the child's one model request,
// so it bounds the overhead from above); (2) a 3-level tree of 20 children (4 under the top-level
// agent, 4 under each of those), every model request taking 100 ms, with
// max_concurrent 5 against the same tree run one child at a time. In process, through
// createAgentRuntime, against the scripted OpenAI-compatible server on 127.0.0.1. The
// overhead is measured with history off, then on (every child's conversation stored).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgentRuntime, resolveRuntimeConfig } from "../packages/runtime/dist/index.js";
import {
  startScriptedOpenAI,
  type ChatScenario,
  type ChatView,
} from "../tools/scripted-servers/openai-server.ts";
import { median } from "./measure.ts";

const RUNS = 5;
const home = mkdtempSync(path.join(tmpdir(), "xz-bench-sub-home-"));
const workspace = mkdtempSync(path.join(tmpdir(), "xz-bench-sub-ws-"));
writeFileSync(path.join(workspace, "README.md"), "bench\n");

const depthOf = (request: ChatView) =>
  Number(
    /You are a subagent \(depth (\d+)\)/.exec(
      request.messages.find((message) => message.role === "system")?.content ?? "",
    )?.[1] ?? "0",
  );
const toolResults = (request: ChatView) =>
  request.messages.filter((message) => message.role === "tool").length;

async function timeRun(
  scenario: ChatScenario,
  agent: Record<string, unknown>,
  prompt: string,
  history = false,
): Promise<number> {
  const server = await startScriptedOpenAI({ scenario, apiKey: "sk-bench", models: ["m"] });
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: server.url, model: "m" } },
      agent: {
        terminal: { sandbox: false },
        max_turns: 1000,
        max_tool_calls: 1000,
        ...agent,
      },
      persistence: { enabled: history, data_dir: path.join(home, "data") },
    },
    { homeDir: home, env: {} },
  );
  const runtime = await createAgentRuntime(
    config,
    { warn: () => undefined },
    {
      workspace,
      modes: { chatMode: "write", safetyMode: "safe", executionMode: "restricted" },
      env: { OPENAI_API_KEY: "sk-bench" },
      subagents: true,
    },
  );
  try {
    const started = performance.now();
    const result = await runtime.run(prompt);
    const wall = performance.now() - started;
    if (result.stopReason !== "completed") throw new Error(`run ended ${result.stopReason}`);
    return wall;
  } finally {
    await runtime.close();
    await server.close();
  }
}

const CALLS = 50;
/** The top-level agent delegates CALLS times, one at a time; each child answers at once. */
const delegating: ChatScenario = (request) => {
  if (depthOf(request) > 0) return { content: "done" };
  const done = toolResults(request);
  return done < CALLS
    ? {
        toolCalls: [
          { name: "subagent", arguments: { label: `c${done}`, task_prompt: `task ${done}` } },
        ],
      }
    : { content: "all delegated" };
};
/**
 * The same top-level conversation with a cheap read tool instead of each subagent: CALLS
 * calls, CALLS + 1 requests. The difference per call is a subagent call's cost with its
 * child's one model request included: an upper bound on the overhead beyond it. (An equal
 * number of requests would need twice as many reads, whose growing conversation costs more
 * than the children's fresh ones and made the difference negative.)
 */
const reading: ChatScenario = (request) => {
  const done = toolResults(request);
  if (done >= CALLS) return { content: "all read" };
  return {
    toolCalls: [
      { name: "list_directory", arguments: { path: ".", pattern: "*".repeat(done + 1) } },
    ],
  };
};

/** A 3-level tree: 4 tasks at the top, each fanning out to 4 leaves; every request 100 ms. */
function tree(concurrency: number): ChatScenario {
  return (request) => {
    const depth = depthOf(request);
    const delayMs = 100;
    if (depth === 2) return { content: "leaf done", delayMs };
    if (toolResults(request) > 0) return { content: "level done", delayMs };
    return {
      delayMs,
      toolCalls: [
        {
          name: "parallel_subagent",
          arguments: {
            tasks: [1, 2, 3, 4].map((n) => ({
              label: `d${depth + 1}-${n}`,
              task_prompt: `part ${n}`,
            })),
            max_concurrent: concurrency,
          },
        },
      ],
    };
  };
}

try {
  await timeRun(delegating, {}, "warm up");
  const delegated: number[] = [];
  const read: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    delegated.push(await timeRun(delegating, {}, "delegate"));
    read.push(await timeRun(reading, {}, "read"));
  }
  const overhead = (median(delegated) - median(read)) / CALLS;
  console.log(
    `subagent call, its child's model request included (an upper bound on the overhead beyond it): ${overhead.toFixed(2)} ms per call ` +
      `(${CALLS} delegations ${median(delegated).toFixed(0)} ms, ${2 * CALLS + 1} requests, vs ${CALLS} reads ${median(read).toFixed(0)} ms, ` +
      `${CALLS + 1} requests; median of ${RUNS}; target < 5 ms)`,
  );
  // The same with history on: each child's conversation is stored under its parent's.
  const delegatedStored: number[] = [];
  const readStored: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    delegatedStored.push(await timeRun(delegating, {}, "delegate", true));
    readStored.push(await timeRun(reading, {}, "read", true));
  }
  const storedOverhead = (median(delegatedStored) - median(readStored)) / CALLS;
  console.log(
    `the same with history on (each child stored): ${storedOverhead.toFixed(2)} ms per call ` +
      `(${median(delegatedStored).toFixed(0)} ms vs ${median(readStored).toFixed(0)} ms, median of ${RUNS})`,
  );
  const parallel: number[] = [];
  const sequential: number[] = [];
  for (let index = 0; index < 3; index += 1) {
    parallel.push(await timeRun(tree(5), { subagent: { max_concurrent: 5 } }, "tree"));
    sequential.push(await timeRun(tree(1), { subagent: { max_concurrent: 1 } }, "tree"));
  }
  console.log(
    `3-level tree of 20 children, 100 ms per model request: ${median(parallel).toFixed(0)} ms with max_concurrent 5, ` +
      `${median(sequential).toFixed(0)} ms one at a time (${(median(sequential) / median(parallel)).toFixed(1)}x; median of 3)`,
  );
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
}
