import { describe, expect, it } from "vitest";
import { z } from "zod";
import { replies } from "@xzatoma/scripted-servers/replies-model";
import { agentLimitsConfigShape, conversationConfigSchema } from "./agent-config.js";
import { agentOptionsFromConfig } from "./agent-options-from-config.js";
import { DEFAULT_AGENT_LIMITS, DEFAULT_MAX_OUTPUT_TOKENS } from "./agent-limits.js";
import { Agent } from "./agent.js";

/** The `agent` section as a front end would build it from these pieces. */
const agentSection = z.strictObject({
  ...agentLimitsConfigShape,
  conversation: conversationConfigSchema.prefault({}),
});

const parse = (value: unknown) => agentSection.parse(value);

describe("agent configuration", () => {
  it("gives the agent's defaults for an empty section", () => {
    expect(parse({})).toEqual({
      max_turns: 50,
      timeout_seconds: 300,
      max_tool_calls: 200,
      max_tool_calls_per_step: 16,
      max_repeated_tool_calls: 3,
      max_output_tokens: DEFAULT_MAX_OUTPUT_TOKENS,
      conversation: {
        max_tokens: 100_000,
        min_retain_turns: 5,
        prune_threshold: 0.8,
        warning_threshold: 0.85,
        critical_threshold: 0.95,
      },
    });
    expect(agentOptionsFromConfig(parse({}), 128_000)).toEqual({
      limits: DEFAULT_AGENT_LIMITS,
      context: {
        maxTokens: 100_000,
        pruneThreshold: 0.8,
        minRetainTurns: 5,
        warningThreshold: 0.85,
        criticalThreshold: 0.95,
      },
      callSettings: { maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS },
    });
  });

  it("maps every key onto the agent's options", () => {
    const options = agentOptionsFromConfig(
      parse({
        max_turns: 7,
        timeout_seconds: 90,
        max_tool_calls: 40,
        max_tool_calls_per_step: 4,
        max_repeated_tool_calls: 2,
        max_output_tokens: 2000,
        conversation: {
          max_tokens: 50_000,
          min_retain_turns: 3,
          prune_threshold: false,
          warning_threshold: 0.6,
          critical_threshold: 0.7,
        },
      }),
      200_000,
    );
    expect(options).toEqual({
      limits: {
        maxTurns: 7,
        timeoutMs: 90_000,
        maxToolCalls: 40,
        maxToolCallsPerStep: 4,
        maxRepeatedToolCalls: 2,
      },
      context: {
        maxTokens: 50_000,
        pruneThreshold: false,
        minRetainTurns: 3,
        warningThreshold: 0.6,
        criticalThreshold: 0.7,
      },
      callSettings: { maxOutputTokens: 2000 },
    });
  });

  it.each([
    // window, max_tokens, max_output_tokens → context budget, output cap
    [128_000, 100_000, 8192, 100_000, 8192],
    [32_768, 100_000, 8192, 24_576, 8192],
    [8192, 100_000, 8192, 6144, 2048],
    [4096, 100_000, 1000, 3096, 1000],
  ])(
    "keeps room for the answer in a %i-token window (max_tokens %i, max_output_tokens %i)",
    (window, maxTokens, maxOutput, budget, cap) => {
      const options = agentOptionsFromConfig(
        parse({ max_output_tokens: maxOutput, conversation: { max_tokens: maxTokens } }),
        window,
      );
      expect(options.context.maxTokens).toBe(budget);
      expect(options.callSettings.maxOutputTokens).toBe(cap);
      expect(options.context.maxTokens + cap).toBeLessThanOrEqual(window);
    },
  );

  it("keeps at least the current turn when min_retain_turns is 0", () => {
    const options = agentOptionsFromConfig(
      parse({ conversation: { min_retain_turns: 0 } }),
      10_000,
    );
    expect(options.context.minRetainTurns).toBe(1);
    expect(() => new Agent({ model: replies({ text: "x" }), ...options })).not.toThrow();
  });

  it("gives options an Agent takes as they are", async () => {
    const model = replies({ text: "done" });
    const options = agentOptionsFromConfig(parse({ max_turns: 2, max_output_tokens: 500 }), 32_000);
    const agent = new Agent({ model, ...options });
    expect(agent.limits.maxTurns).toBe(2);
    expect(agent.conversation.status().maxTokens).toBe(options.context.maxTokens);
    await agent.run("hi");
    expect(model.doStreamCalls[0]?.maxOutputTokens).toBe(500);
  });

  it.each([
    [{ max_turns: 1001 }, ["max_turns"]],
    [{ max_repeated_tool_calls: 0 }, ["max_repeated_tool_calls"]],
    [{ max_output_tokens: 1.5 }, ["max_output_tokens"]],
    [{ conversation: { prune_threshold: 1.2 } }, ["conversation", "prune_threshold"]],
    [{ conversation: { min_retain_turns: -1 } }, ["conversation", "min_retain_turns"]],
    [
      { conversation: { warning_threshold: 0.9, critical_threshold: 0.8 } },
      ["conversation", "critical_threshold"],
    ],
  ])("rejects %j, naming the key", (value, path) => {
    const parsed = agentSection.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(path);
  });

  it("rejects the removed max_consecutive_tool_steps as an unknown key", () => {
    const parsed = agentSection.safeParse({ max_consecutive_tool_steps: 25 });
    expect(parsed.error?.issues[0]).toMatchObject({
      code: "unrecognized_keys",
      keys: ["max_consecutive_tool_steps"],
    });
  });

  it("rejects a context window that is not a whole number of tokens", () => {
    expect(() => agentOptionsFromConfig(parse({}), Number.NaN)).toThrow(/context window/);
    expect(() => agentOptionsFromConfig(parse({}), 0)).toThrow(/context window/);
  });
});
