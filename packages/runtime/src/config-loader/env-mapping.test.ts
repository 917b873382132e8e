import { runtimeConfigSchema } from "../config/config-schema.js";
import { describe, expect, it } from "vitest";
import {
  ECOSYSTEM_ENV_MAPPINGS,
  ENV_MAPPINGS,
  environmentVariableOf,
  NON_KEY_VARIABLES,
} from "./env-mapping.js";
import { allKeyPaths, isLeafAt } from "./schema-walk.js";

// `mcp.servers` is a mapping of servers, which no text can hold: it has no variable.
const leafKeys = allKeyPaths(runtimeConfigSchema).filter(
  (keyPath) => isLeafAt(runtimeConfigSchema, keyPath.split(".")) && keyPath !== "mcp.servers",
);

describe("environment variable names", () => {
  it("are XZATOMA_ and the key path in upper case, dots as underscores", () => {
    expect(environmentVariableOf("agent.max_turns")).toBe("XZATOMA_AGENT_MAX_TURNS");
    expect(environmentVariableOf("provider.ollama.host")).toBe("XZATOMA_PROVIDER_OLLAMA_HOST");
    expect(environmentVariableOf("agent.terminal.allow_unattended_git_writes")).toBe(
      "XZATOMA_AGENT_TERMINAL_ALLOW_UNATTENDED_GIT_WRITES",
    );
  });

  it("exist for every key of the schema, one each, with the kind of its value", () => {
    const derived = ENV_MAPPINGS.filter((mapping) => mapping.origin === "derived");
    expect(derived.map((mapping) => mapping.key).sort()).toEqual([...leafKeys].sort());
    const kinds = Object.fromEntries(derived.map((mapping) => [mapping.key, mapping.kind]));
    expect(kinds).toMatchObject({
      "agent.max_turns": "number",
      "agent.terminal.sandbox": "boolean",
      "agent.terminal.allowlist": "list",
      "agent.tools.packages": "list",
      "agent.fetch.allowed_ports": "numberList",
      "agent.conversation.prune_threshold": "fractionOrOff",
      "provider.type": "text",
      "persistence.data_dir": "text",
      "watcher.watcher_type": "text",
      "watcher.kafka.num_partitions": "number",
    });
  });

  it("never name one variable twice, and the derived ones come after the ecosystem ones", () => {
    const names = ENV_MAPPINGS.map((mapping) => mapping.variable);
    expect(new Set(names).size).toBe(names.length);
    for (const name of NON_KEY_VARIABLES) expect(names).not.toContain(name);
    const lastEcosystem = ENV_MAPPINGS.findLastIndex((mapping) => mapping.origin === "ecosystem");
    const firstDerived = ENV_MAPPINGS.findIndex((mapping) => mapping.origin === "derived");
    expect(lastEcosystem).toBeLessThan(firstDerived);
  });

  it("keep one short table of ecosystem names and shorthands", () => {
    expect(
      ECOSYSTEM_ENV_MAPPINGS.map((mapping) => [mapping.variable, mapping.key, mapping.layer]),
    ).toEqual([
      ["OLLAMA_HOST", "provider.ollama.host", undefined],
      ["OPENAI_BASE_URL", "provider.openai.base_url", undefined],
      ["XZATOMA_PROVIDER", "provider.type", undefined],
      ["XZATOMA_MODEL", "provider.<type>.model", undefined],
      ["XZATOMA_HOME", "persistence.data_dir", "fallback"],
    ]);
  });
});
