import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runtimeConfigSchema as configFileSchema } from "../config/config-schema.js";
import { isCredentialKey } from "./credential-keys.js";
import { ENV_MAPPINGS } from "./env-mapping.js";
import { TEST_FLAG_MAPPINGS } from "./flag-mappings.test-support.js";
import { formatConfig, formatConfigJson } from "./format-config.js";
import { loadConfig } from "./load-config.js";
import { isLeafAt } from "./schema-walk.js";
import { keySegments, SELECTED_MODEL_KEY } from "./value-kinds.js";

const file = "/home/ada/.config/xzatoma/config.yaml";
const readFile = async () =>
  "agent:\n  max_turns: 12\n  tools:\n    packages:\n      - name: '@acme/notes'\n        options: { dir: notes }\n";

async function loadExample() {
  return loadConfig({
    env: { XZATOMA_PROVIDER: "openai", XZATOMA_AGENT_TERMINAL_ALLOWLIST: "ls,git" },
    flags: { model: "gpt-x", timeout: 90 },
    flagMappings: TEST_FLAG_MAPPINGS,
    homeDir: "/home/ada",
    readFile,
  });
}

describe("formatConfig", () => {
  it("prints YAML with the source of every value", async () => {
    const loaded = await loadExample();
    const text = formatConfig(loaded.config, loaded.sources, {
      configPath: loaded.configPath,
      configFileFound: loaded.configFileFound,
    });
    expect(text).toContain(`# config file: ${file}\n`);
    expect(text).toContain("  type: openai # from env:XZATOMA_PROVIDER\n");
    expect(text).toContain("    model: gpt-x # from flag:--model\n");
    expect(text).toContain("  max_turns: 12 # from file\n");
    expect(text).toContain("  timeout_seconds: 90 # from flag:--timeout\n");
    expect(text).toContain(
      "    allowlist: [ls, git] # from env:XZATOMA_AGENT_TERMINAL_ALLOWLIST\n",
    );
    expect(text).toContain("    packages: # from file\n");
    expect(text).toContain("    default_mode: restricted_autonomous # from default\n");
  });

  it("prints a file that loads back to the same configuration", async () => {
    const loaded = await loadExample();
    const text = formatConfig(loaded.config, loaded.sources);
    const again = await loadConfig({ env: {}, homeDir: "/home/ada", readFile: async () => text });
    expect(again.config).toEqual(loaded.config);
  });

  it("prints JSON with the snake_case config and the sources", async () => {
    const loaded = await loadExample();
    const json = JSON.parse(
      formatConfigJson(loaded.config, loaded.sources, { configPath: loaded.configPath }),
    ) as { configPath: string; config: { agent: { max_turns: number } }; sources: object };
    expect(json.configPath).toBe(file);
    expect(json.config.agent.max_turns).toBe(12);
    expect(json.sources).toMatchObject({
      "agent.max_turns": `file:${file}`,
      "provider.openai.model": "flag:--model",
    });
    expect(parse(formatConfig(loaded.config, loaded.sources))).toEqual(json.config);
  });
});

describe("mappings", () => {
  it("map every environment variable and flag to a leaf key of the schema", () => {
    for (const mapping of [...ENV_MAPPINGS, ...TEST_FLAG_MAPPINGS]) {
      const segments =
        mapping.key === SELECTED_MODEL_KEY
          ? keySegments(mapping.key, "openai")
          : mapping.key.split(".");
      expect(segments && isLeafAt(configFileSchema, segments), mapping.key).toBe(true);
    }
    expect(new Set(ENV_MAPPINGS.map((mapping) => mapping.variable)).size).toBe(ENV_MAPPINGS.length);
  });
});

describe("credential keys", () => {
  it("recognises secrets by name, not every key that mentions a key", () => {
    for (const name of [
      "api_key",
      "apiKey",
      "token",
      "access_token",
      "client_secret",
      "password",
      "key",
      "private-key",
    ]) {
      expect(isCredentialKey(name), name).toBe(true);
    }
    for (const name of ["max_tokens", "key_bindings", "monkey", "keys", "tokenizer"]) {
      expect(isCredentialKey(name), name).toBe(false);
    }
  });
});
