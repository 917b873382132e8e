// The tree's quota through the built `xzatoma run`: a child's final answer that takes the
// tree past its token budget stops the whole tree with the stop reason `quota`, exit code 4,
// the budget named on standard error, and the tree's tokens in the `finished` event and on
// the top-level span.
import { describe, expect, it } from "vitest";
import {
  startScriptedOllama,
  type Scenario,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { startOtlpReceiver } from "@xzatoma/scripted-servers/otlp";
import { runCli } from "./cli.test-support.js";
import { runTestBed } from "./run-test-bed.test-support.js";
import { depthOf } from "./subagents.test-support.js";

const bed = runTestBed<ScriptedOllama>("xz-quota", { "notes.txt": "launch at dawn\n" });
const { env } = bed;

interface Event {
  readonly type: string;
  readonly [key: string]: unknown;
}
interface Tokens {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

const eventsOf = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Event);

// The top-level agent delegates once; the child answers at once, at length; the top-level
// agent then answers. Without a quota every agent completes.
const scenario: Scenario = (request) => {
  if (depthOf(request) === 1) return { content: "The notes say: launch at dawn. ".repeat(30) };
  return request.messages.some((message) => message.role === "tool")
    ? { content: "Delegated and done." }
    : {
        toolCalls: [
          { name: "subagent", arguments: { label: "reader", task_prompt: "Read notes.txt" } },
        ],
      };
};

describe("xzatoma run with agent.quota.max_total_tokens", () => {
  it("stops the whole tree when a child's final answer exceeds the token budget: stop reason quota, exit 4", async () => {
    const server = bed.serve(await startScriptedOllama({ scenario }));
    // Measured first, without a budget that binds: the tokens of each agent's requests.
    const free = await runCli(["run", "--subagents", "--json", "Use a subagent"], {
      cwd: bed.workspace,
      env: env(),
    });
    expect(free.code).toBe(0);
    const freeEvents = eventsOf(free.stdout);
    const firstUsage = freeEvents.find((event) => event.type === "usage")?.["usage"] as Tokens;
    const child = freeEvents.find((event) => event.type === "subagent-finished")!;
    expect(child["stopReason"]).toBe("completed");
    const childTokens = (child["usage"] as Tokens).totalTokens;
    const finishedFree = freeEvents.at(-1)!;
    expect(finishedFree).toMatchObject({ type: "finished", stopReason: "completed" });
    // The tree's tokens: the top-level agent's own and the child's.
    expect((finishedFree["treeUsage"] as Tokens).totalTokens).toBe(
      (finishedFree["usage"] as Tokens).totalTokens + childTokens,
    );

    // A budget the top-level request fits in and the child's answer takes the tree past.
    const limit = firstUsage.totalTokens + Math.floor(childTokens / 2);
    const topLevelBefore = server.requests.filter((request) => depthOf(request) === 0).length;
    const collector = await startOtlpReceiver();
    try {
      const outcome = await runCli(["run", "--subagents", "--json", "Use a subagent"], {
        cwd: bed.workspace,
        env: {
          ...env(),
          XZATOMA_AGENT_QUOTA_MAX_TOTAL_TOKENS: String(limit),
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        },
      });
      expect(outcome.code).toBe(4);
      const events = eventsOf(outcome.stdout);
      expect(events.find((event) => event.type === "subagent-finished")).toMatchObject({
        label: "reader",
        stopReason: "quota",
      });
      const spent = firstUsage.totalTokens + childTokens;
      const finished = events.at(-1)!;
      expect(finished).toMatchObject({
        type: "finished",
        stopReason: "quota",
        quota: { budget: "tokens", limit, used: spent, key: "agent.quota.max_total_tokens" },
        treeUsage: { totalTokens: spent },
      });
      // The top-level agent did not go on after the child: its model was asked once.
      const topLevelAfter = server.requests.filter((request) => depthOf(request) === 0).length;
      expect(topLevelAfter - topLevelBefore).toBe(1);

      const root = collector
        .spans()
        .find((span) => span.name.startsWith("invoke_agent") && !span.parentSpanId);
      expect(root?.attributes["xzatoma.stop_reason"]).toBe("quota");
      expect(root?.attributes["xzatoma.tree.total_tokens"]).toBe(spent);
      expect(root?.attributes["xzatoma.quota.budget"]).toBe("tokens");
    } finally {
      await collector.close();
    }

    // Without --json: the same exit code, and standard error names the budget and its key.
    const plain = await runCli(["run", "--subagents", "Use a subagent"], {
      cwd: bed.workspace,
      env: { ...env(), XZATOMA_AGENT_QUOTA_MAX_TOTAL_TOKENS: String(limit) },
    });
    expect(plain.code).toBe(4);
    expect(plain.stderr).toContain(
      `xzatoma: stopped: the run's quota of ${limit} tokens is used up (${firstUsage.totalTokens + childTokens} used; agent.quota.max_total_tokens): the whole tree stopped (raise agent.quota.max_total_tokens).`,
    );
    expect(plain.stderr).toContain(
      `with its subagents: ${firstUsage.totalTokens + childTokens} tokens`,
    );
  });

  it("exits 0 with the same tree under a budget it fits in", async () => {
    bed.serve(await startScriptedOllama({ scenario }));
    const outcome = await runCli(["run", "--subagents", "--json", "Use a subagent"], {
      cwd: bed.workspace,
      env: { ...env(), XZATOMA_AGENT_QUOTA_MAX_TOTAL_TOKENS: "1000000" },
    });
    expect(outcome.code).toBe(0);
    expect(eventsOf(outcome.stdout).at(-1)).toMatchObject({
      type: "finished",
      stopReason: "completed",
    });
  });
});
