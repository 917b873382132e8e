import { describe, expect, it } from "vitest";
import { runtimeConfigSchema } from "./config-schema.js";
import { chatConfigSchema, mentionsConfigSchema } from "./front-end-schemas.js";
import { subagentConfigSchema } from "../subagents/subagent-config.js";

describe("runtimeConfigSchema", () => {
  it("gives every default for an empty file, without the optional sections", () => {
    const config = runtimeConfigSchema.parse({});
    expect(config.agent.mentions).toEqual(mentionsConfigSchema.parse({}));
    expect(config.agent.chat).toEqual({ default_mode: "planning", default_safety: "safe" });
    expect(chatConfigSchema.parse({})).toEqual(config.agent.chat);
    expect(config.logging).toEqual({});
    expect(Object.keys(config)).toEqual(["provider", "agent", "persistence", "logging", "mcp"]);
    expect(config.mcp).toEqual({
      servers: {},
      connect_timeout_seconds: 30,
      tool_search: { mode: "auto" },
    });
    expect(config.agent.subagent.enabled).toBe(false);
    expect(config.agent.quota.max_executions).toBe(100);
  });

  it("has the documented defaults for subagents, quotas, the watcher and XZepr", () => {
    expect(subagentConfigSchema.parse({})).toEqual({
      enabled: false,
      max_depth: 3,
      default_max_turns: 10,
      output_max_size: 16_384,
      max_concurrent: 5,
      persistence_enabled: true,
    });
    expect(runtimeConfigSchema.parse({ watcher: {} }).watcher).toMatchObject({
      watcher_type: "xzepr",
      kafka: { topic: "xzepr.events", group_id: "xzatoma-watcher", num_partitions: 1 },
      filters: { event_types: [], success_only: true },
      execution: {
        allow_dangerous: false,
        max_concurrent_executions: 1,
        execution_timeout_secs: 300,
      },
    });
    const full = runtimeConfigSchema.parse({ agent: { quota: {} } });
    expect(full.agent.quota).toEqual({
      max_executions: 100,
      max_total_tokens: 1_000_000,
      max_total_tool_calls: 1000,
      max_total_time_seconds: 3600,
    });
  });

  it("refuses unknown keys inside the watcher and XZepr sections", () => {
    expect(runtimeConfigSchema.safeParse({ watcher: { kafka: { broker: "x" } } }).success).toBe(
      false,
    );
    expect(runtimeConfigSchema.safeParse({ xzepr: { api: "x" } }).success).toBe(false);
    expect(runtimeConfigSchema.parse({ xzepr: {} }).xzepr?.report_results).toBe(false);
  });
});
