import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { ENV_MAPPINGS, loadConfig, SELECTED_MODEL_KEY } from "@xzatoma/runtime";
import { FLAG_MAPPINGS, pickExplicitFlags } from "./flag-mapping.js";

describe("FLAG_MAPPINGS", () => {
  it("map every flag to a key of the configuration, read like its environment variable", () => {
    for (const mapping of FLAG_MAPPINGS) {
      if (mapping.key === SELECTED_MODEL_KEY) continue;
      // Every key text can set has one derived environment variable.
      const variable = ENV_MAPPINGS.find(
        (candidate) => candidate.origin === "derived" && candidate.key === mapping.key,
      );
      expect(variable?.kind, mapping.key).toBe(mapping.kind);
    }
    expect(new Set(FLAG_MAPPINGS.map((mapping) => mapping.option)).size).toBe(FLAG_MAPPINGS.length);
  });

  it("let the loader name the flag each value came from", async () => {
    const loaded = await loadConfig({
      env: {},
      flags: { provider: "openai", model: "gpt-x", maxTurns: 5, sandbox: false },
      flagMappings: FLAG_MAPPINGS,
      homeDir: "/home/ada",
      readFile: async () => "",
    });
    expect(loaded.config.provider.openai.model).toBe("gpt-x");
    expect(loaded.sources).toMatchObject({
      "provider.type": "flag:--provider",
      "provider.openai.model": "flag:--model",
      "agent.max_turns": "flag:--max-turns",
      "agent.terminal.sandbox": "flag:--no-sandbox",
    });
  });
});

describe("pickExplicitFlags", () => {
  it("picks only the options the user typed, not commander's defaults", () => {
    const command = new Command("run")
      .exitOverride()
      .option("--provider <name>", "", "ollama")
      .option("--max-turns <n>", "", Number)
      .option("--no-sandbox")
      .option("-p, --prompt <text>");
    command.parse(["--max-turns", "5", "-p", "hi"], { from: "user" });
    expect(command.opts()).toMatchObject({ provider: "ollama", sandbox: true });
    expect(pickExplicitFlags(command)).toEqual({ maxTurns: 5, prompt: "hi" });
  });
});
