import { describe, expect, it } from "vitest";
import { resolveRuntimeConfig } from "../resolve-config.js";
import { RunScope, treeQuotaConfig } from "./run-scope.js";

const configWith = (agent: Record<string, unknown>) =>
  resolveRuntimeConfig({ agent }, { homeDir: "/nonexistent-home", env: {} });

describe("RunScope", () => {
  it("gives each run a fresh quota and closes the last one", () => {
    const scope = new RunScope(configWith({ quota: { max_total_tool_calls: 1 } }));
    const first = scope.begin(undefined);
    expect(first.call()).toBeUndefined();
    expect(first.call()).toMatch(/quota of 1 tool calls/);
    scope.turn = 3;
    const second = scope.begin(undefined);
    expect(second).not.toBe(first);
    expect(second.call()).toBeUndefined();
    expect(scope.turn).toBe(0);
  });

  it("waits for every tracked child, failed ones included, before the run is over", async () => {
    const scope = new RunScope(configWith({}));
    const ended: string[] = [];
    let finish: () => void = () => undefined;
    scope.track(new Promise<void>((resolve) => (finish = resolve)).then(() => ended.push("a")));
    scope.track(Promise.reject(new Error("child failed")).catch(() => ended.push("b")));
    const settled = scope.settleChildren().then(() => ended.push("settled"));
    await Promise.resolve();
    finish();
    await settled;
    expect(ended).toEqual(["b", "a", "settled"]);
  });

  it("sends events nowhere once the run has ended", () => {
    const scope = new RunScope(configWith({}));
    const seen: string[] = [];
    scope.emit = (event) => seen.push(event.type);
    scope.emit({ type: "turn-started", turn: 1 } as never);
    scope.end();
    scope.emit({ type: "turn-started", turn: 2 } as never);
    expect(seen).toEqual(["turn-started"]);
  });
});

describe("treeQuotaConfig", () => {
  it("reads agent.quota", () => {
    const quota = treeQuotaConfig(
      configWith({
        quota: { max_executions: 7, max_total_tokens: 900, max_total_time_seconds: 60 },
      }),
    );
    expect(quota).toMatchObject({
      max_executions: 7,
      max_total_tokens: 900,
      max_total_time_seconds: 60,
    });
  });

  it("lets the deprecated agent.subagent names win when they are set", () => {
    const quota = treeQuotaConfig(
      configWith({
        quota: { max_executions: 7, max_total_tokens: 900, max_total_time_seconds: 60 },
        subagent: { max_executions: 2, max_total_tokens: 100, max_total_time: 5 },
      }),
    );
    expect(quota).toMatchObject({
      max_executions: 2,
      max_total_tokens: 100,
      max_total_time_seconds: 5,
    });
  });
});
