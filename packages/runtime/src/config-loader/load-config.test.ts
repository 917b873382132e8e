import { isXzatomaError } from "@xzatoma/core";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, type ConfigProblem } from "./config-error.js";
import { defaultConfigPath } from "./config-paths.js";
import { TEST_FLAG_MAPPINGS } from "./flag-mappings.test-support.js";
import { loadConfig, validateConfigFile, type LoadConfigOptions } from "./load-config.js";
import { SELECTED_MODEL_KEY } from "./value-kinds.js";

let home: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xzatoma-config-"));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** Writes the default config file (XDG path under the temp home) and returns its path. */
async function writeDefaultConfig(text: string): Promise<string> {
  const file = defaultConfigPath({}, home);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

async function problemsOf(options: Partial<LoadConfigOptions>): Promise<ConfigProblem[]> {
  try {
    await loadConfig({ env: {}, homeDir: home, cwd: home, ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error("expected the configuration to be refused");
}

async function messageOf(options: Partial<LoadConfigOptions>): Promise<string> {
  try {
    await loadConfig({ env: {}, homeDir: home, cwd: home, ...options });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be refused");
}

describe("defaults", () => {
  it("gives every key its default when there is no file, env or flag", async () => {
    const loaded = await loadConfig({ env: {}, homeDir: home, cwd: home });
    expect(loaded.configFileFound).toBe(false);
    expect(loaded.configPath).toBe(path.join(home, ".config", "xzatoma", "config.yaml"));
    expect(loaded.config).toEqual({
      provider: {
        type: "ollama",
        ollama: {
          host: "http://localhost:11434",
          model: "llama3.2:latest",
          request_timeout_seconds: 600,
        },
        openai: {
          base_url: "https://api.openai.com/v1",
          model: "gpt-4o-mini",
          request_timeout_seconds: 600,
          enable_streaming: true,
        },
        copilot: { model: "gpt-5-mini" },
        local: {},
      },
      agent: {
        max_turns: 50,
        timeout_seconds: 300,
        max_tool_calls: 200,
        max_tool_calls_per_step: 16,
        max_repeated_tool_calls: 3,
        max_output_tokens: 8192,
        conversation: {
          max_tokens: 100_000,
          min_retain_turns: 5,
          prune_threshold: 0.8,
          warning_threshold: 0.85,
          critical_threshold: 0.95,
        },
        tools: { max_output_size: 1_048_576, max_file_read_size: 10_485_760, packages: [] },
        terminal: {
          default_mode: "restricted_autonomous",
          timeout_seconds: 30,
          max_stdout_bytes: 10_485_760,
          max_stderr_bytes: 1_048_576,
          allowlist: [],
          custom_denylist: [],
          sandbox: true,
          network: false,
          egress_hosts: [],
          egress_unattended: false,
          allow_unattended_git_writes: false,
        },
        fetch: {
          timeout_seconds: 60,
          max_response_size: 1_048_576,
          allowed_ports: [80, 443],
          allowed_hosts: [],
        },
        mentions: {
          max_file_size: 10_485_760,
          url_cache_ttl_seconds: 86_400,
          max_urls_per_request: 10,
        },
        chat: { default_mode: "planning", default_safety: "safe" },
        subagent: {
          enabled: false,
          max_depth: 3,
          default_max_turns: 10,
          output_max_size: 16_384,
          max_concurrent: 5,
          persistence_enabled: true,
        },
        quota: {
          max_executions: 100,
          max_total_tokens: 1_000_000,
          max_total_tool_calls: 1000,
          max_total_time_seconds: 3600,
        },
      },
      persistence: {
        enabled: true,
        data_dir: path.join(home, ".xzatoma"),
        db_path: path.join(home, ".xzatoma", "history.db"),
      },
      logging: {},
      mcp: { servers: {}, connect_timeout_seconds: 30, tool_search: { mode: "auto" } },
    });
    expect(new Set(Object.values(loaded.sources))).toEqual(new Set(["default"]));
    expect(Object.keys(loaded.sources)).toContain("agent.max_turns");
    expect(Object.keys(loaded.sources)).toContain("persistence.db_path");
    expect(loaded.warnings).toEqual([]);
  });

  it("uses $XDG_CONFIG_HOME when it is absolute, else ~/.config", () => {
    expect(defaultConfigPath({ XDG_CONFIG_HOME: "/xdg" }, "/home/ada")).toBe(
      "/xdg/xzatoma/config.yaml",
    );
    expect(defaultConfigPath({ XDG_CONFIG_HOME: "relative" }, "/home/ada")).toBe(
      "/home/ada/.config/xzatoma/config.yaml",
    );
    expect(defaultConfigPath({}, "/home/ada")).toBe("/home/ada/.config/xzatoma/config.yaml");
  });

  it("reads the file at $XDG_CONFIG_HOME", async () => {
    const xdg = path.join(home, "xdg");
    await mkdir(path.join(xdg, "xzatoma"), { recursive: true });
    await writeFile(path.join(xdg, "xzatoma", "config.yaml"), "agent:\n  max_turns: 7\n");
    const loaded = await loadConfig({ env: { XDG_CONFIG_HOME: xdg }, homeDir: home });
    expect(loaded.config.agent.max_turns).toBe(7);
    expect(loaded.configFileFound).toBe(true);
  });
});

describe("precedence: defaults < file < environment < flags", () => {
  it("lets each layer win in turn for one key, and says where the value came from", async () => {
    const file = await writeDefaultConfig("agent:\n  max_turns: 10\n");
    const env = { XZATOMA_AGENT_MAX_TURNS: "20" };
    const flags = { maxTurns: 30 };

    const all = await loadConfig({ env, flags, flagMappings: TEST_FLAG_MAPPINGS, homeDir: home });
    expect(all.config.agent.max_turns).toBe(30);
    expect(all.sources["agent.max_turns"]).toBe("flag:--max-turns");

    const noFlag = await loadConfig({ env, homeDir: home });
    expect(noFlag.config.agent.max_turns).toBe(20);
    expect(noFlag.sources["agent.max_turns"]).toBe("env:XZATOMA_AGENT_MAX_TURNS");

    const fileOnly = await loadConfig({ env: {}, homeDir: home });
    expect(fileOnly.config.agent.max_turns).toBe(10);
    expect(fileOnly.sources["agent.max_turns"]).toBe(`file:${file}`);
    expect(fileOnly.sources["agent.timeout_seconds"]).toBe("default");
  });

  it("points --model and XZATOMA_MODEL at the selected provider's model", async () => {
    await writeDefaultConfig("provider:\n  type: openai\n  openai:\n    model: from-file\n");
    const byEnv = await loadConfig({ env: { XZATOMA_MODEL: "from-env" }, homeDir: home });
    expect(byEnv.config.provider.openai.model).toBe("from-env");
    expect(byEnv.sources["provider.openai.model"]).toBe("env:XZATOMA_MODEL");

    const switched = await loadConfig({
      env: { XZATOMA_MODEL: "from-env" },
      flags: { provider: "ollama", model: "qwen3:0.6b" },
      flagMappings: TEST_FLAG_MAPPINGS,
      homeDir: home,
    });
    expect(switched.config.provider.type).toBe("ollama");
    expect(switched.config.provider.ollama.model).toBe("qwen3:0.6b");
    expect(switched.sources["provider.ollama.model"]).toBe("flag:--model");
    expect(switched.config.provider.openai.model).toBe("from-file");
  });

  it("reads OLLAMA_HOST (a bare host:port too), and XZATOMA_PROVIDER_OLLAMA_HOST wins over it", async () => {
    const plain = await loadConfig({ env: { OLLAMA_HOST: "gpu:11434" }, homeDir: home });
    expect(plain.config.provider.ollama.host).toBe("gpu:11434");
    expect(plain.sources["provider.ollama.host"]).toBe("env:OLLAMA_HOST");
    const both = await loadConfig({
      env: { OLLAMA_HOST: "gpu:11434", XZATOMA_PROVIDER_OLLAMA_HOST: "http://other:1" },
      homeDir: home,
    });
    expect(both.config.provider.ollama.host).toBe("http://other:1");
    expect(both.sources["provider.ollama.host"]).toBe("env:XZATOMA_PROVIDER_OLLAMA_HOST");
    expect((await problemsOf({ env: { OLLAMA_HOST: "not a host" } }))[0]).toMatchObject({
      source: "env:OLLAMA_HOST",
      keyPath: "provider.ollama.host",
    });
  });

  it("reads OPENAI_BASE_URL over the file, and XZATOMA_PROVIDER_OPENAI_BASE_URL over it", async () => {
    await writeDefaultConfig("provider:\n  openai:\n    base_url: http://file:1/v1\n");
    const plain = await loadConfig({
      env: { OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" },
      homeDir: home,
    });
    expect(plain.config.provider.openai.base_url).toBe("http://127.0.0.1:8080/v1");
    expect(plain.sources["provider.openai.base_url"]).toBe("env:OPENAI_BASE_URL");
    const both = await loadConfig({
      env: {
        OPENAI_BASE_URL: "http://127.0.0.1:8080/v1",
        XZATOMA_PROVIDER_OPENAI_BASE_URL: "http://127.0.0.1:9090/v1",
      },
      homeDir: home,
    });
    expect(both.config.provider.openai.base_url).toBe("http://127.0.0.1:9090/v1");
    expect(await messageOf({ env: { OPENAI_BASE_URL: "ftp://x" } })).toBe(
      'Invalid configuration: environment variable OPENAI_BASE_URL: provider.openai.base_url: expected an http or https URL without a user name or password, got "ftp://x"',
    );
  });

  it("reads XZATOMA_PROVIDER, and XZATOMA_PROVIDER_TYPE wins over it, for the key and for XZATOMA_MODEL", async () => {
    const short = await loadConfig({ env: { XZATOMA_PROVIDER: "copilot" }, homeDir: home });
    expect(short.config.provider.type).toBe("copilot");
    expect(short.sources["provider.type"]).toBe("env:XZATOMA_PROVIDER");
    const both = await loadConfig({
      env: { XZATOMA_PROVIDER: "copilot", XZATOMA_PROVIDER_TYPE: "openai", XZATOMA_MODEL: "m1" },
      homeDir: home,
    });
    expect(both.config.provider.type).toBe("openai");
    expect(both.sources["provider.type"]).toBe("env:XZATOMA_PROVIDER_TYPE");
    expect(both.config.provider.openai.model).toBe("m1");
    expect(both.config.provider.copilot.model).toBe("gpt-5-mini");
  });

  it("lets the selected provider's derived model variable win over XZATOMA_MODEL", async () => {
    const loaded = await loadConfig({
      env: { XZATOMA_MODEL: "short", XZATOMA_PROVIDER_OLLAMA_MODEL: "derived" },
      homeDir: home,
    });
    expect(loaded.config.provider.ollama.model).toBe("derived");
    expect(loaded.sources["provider.ollama.model"]).toBe("env:XZATOMA_PROVIDER_OLLAMA_MODEL");
    const local = await loadConfig({
      env: { XZATOMA_PROVIDER: "local", XZATOMA_MODEL: "/models/m.gguf" },
      homeDir: home,
    });
    expect(local.config.provider.local.model_path).toBe("/models/m.gguf");
  });

  it("derives a variable for every key: nested keys, lists, booleans", async () => {
    const loaded = await loadConfig({
      env: {
        XZATOMA_AGENT_CONVERSATION_WARNING_THRESHOLD: "0.7",
        XZATOMA_AGENT_TERMINAL_CUSTOM_DENYLIST: "curl,wget",
        XZATOMA_PROVIDER_OPENAI_ENABLE_STREAMING: "no",
        XZATOMA_AGENT_TERMINAL_ALLOW_UNATTENDED_GIT_WRITES: "true",
        XZATOMA_AGENT_MENTIONS_MAX_URLS_PER_REQUEST: "3",
        XZATOMA_LOGGING_FILE: "logs/chat.log",
      },
      homeDir: home,
      cwd: "/work",
    });
    expect(loaded.config.agent.conversation.warning_threshold).toBe(0.7);
    expect(loaded.config.agent.terminal.custom_denylist).toEqual(["curl", "wget"]);
    expect(loaded.config.provider.openai.enable_streaming).toBe(false);
    expect(loaded.config.agent.terminal.allow_unattended_git_writes).toBe(true);
    expect(loaded.config.agent.mentions.max_urls_per_request).toBe(3);
    expect(loaded.config.logging.file).toBe("/work/logs/chat.log");
    expect(loaded.sources["agent.terminal.custom_denylist"]).toBe(
      "env:XZATOMA_AGENT_TERMINAL_CUSTOM_DENYLIST",
    );
    expect(loaded.warnings).toEqual([]);
  });

  it("warns about an XZATOMA_ variable that sets nothing but looks like one that does", async () => {
    const loaded = await loadConfig({
      env: { XZATOMA_MAX_TURNS: "5", XZATOMA_AGENT_MAX_TURN: "6", XZATOMA_UNRELATED_THING: "x" },
      homeDir: home,
    });
    expect(loaded.config.agent.max_turns).toBe(50);
    expect(loaded.warnings).toEqual([
      "environment variable XZATOMA_MAX_TURNS: sets no configuration key; did you mean XZATOMA_AGENT_MAX_TURNS?",
      "environment variable XZATOMA_AGENT_MAX_TURN: sets no configuration key; did you mean XZATOMA_AGENT_MAX_TURNS?",
    ]);
  });

  it("reads lists, booleans and 'off' from the environment, and ignores blank variables", async () => {
    const loaded = await loadConfig({
      env: {
        XZATOMA_AGENT_TERMINAL_ALLOWLIST: "ls, cat ,,git",
        XZATOMA_AGENT_FETCH_ALLOWED_PORTS: "443,8443",
        XZATOMA_AGENT_TERMINAL_SANDBOX: "off",
        XZATOMA_AGENT_CONVERSATION_PRUNE_THRESHOLD: "off",
        XZATOMA_AGENT_MAX_TURNS: "  ",
        XZATOMA_AGENT_TOOLS_PACKAGES: "@acme/notes",
      },
      homeDir: home,
    });
    expect(loaded.config.agent.terminal.allowlist).toEqual(["ls", "cat", "git"]);
    expect(loaded.config.agent.fetch.allowed_ports).toEqual([443, 8443]);
    expect(loaded.config.agent.terminal.sandbox).toBe(false);
    expect(loaded.config.agent.conversation.prune_threshold).toBe(false);
    expect(loaded.config.agent.max_turns).toBe(50);
    expect(loaded.config.agent.tools.packages).toEqual([{ name: "@acme/notes", options: {} }]);
  });

  it("ignores flags that are not configuration and undefined values", async () => {
    const loaded = await loadConfig({
      env: {},
      flags: { prompt: "hi", json: true, maxTurns: undefined, mode: "write", sandbox: false },
      flagMappings: TEST_FLAG_MAPPINGS,
      homeDir: home,
    });
    expect(loaded.config.agent.max_turns).toBe(50);
    expect(loaded.config.agent.chat.default_mode).toBe("write");
    expect(loaded.sources["agent.chat.default_mode"]).toBe("flag:--mode");
    expect(loaded.config.agent.terminal.sandbox).toBe(false);
    expect(loaded.sources["agent.terminal.sandbox"]).toBe("flag:--no-sandbox");
  });

  it("derives the data paths from XZATOMA_HOME and lets XZATOMA_PERSISTENCE_DB_PATH and --storage-path win", async () => {
    const data = path.join(home, "data");
    const viaHome = await loadConfig({ env: { XZATOMA_HOME: data }, homeDir: home });
    expect(viaHome.config.persistence.data_dir).toBe(data);
    expect(viaHome.config.persistence.db_path).toBe(path.join(data, "history.db"));
    expect(viaHome.sources["persistence.data_dir"]).toBe("env:XZATOMA_HOME");
    expect(viaHome.sources["persistence.db_path"]).toBe("env:XZATOMA_HOME");

    const viaFlag = await loadConfig({
      env: { XZATOMA_HOME: data, XZATOMA_PERSISTENCE_DB_PATH: "/tmp/env.db" },
      flags: { storagePath: "rel/flag.db" },
      flagMappings: TEST_FLAG_MAPPINGS,
      homeDir: home,
      cwd: "/work",
    });
    expect(viaFlag.config.persistence.db_path).toBe("/work/rel/flag.db");
    expect(viaFlag.sources["persistence.db_path"]).toBe("flag:--storage-path");
  });

  it("keeps persistence.data_dir from the file over XZATOMA_HOME; XZATOMA_PERSISTENCE_DATA_DIR wins over both", async () => {
    const file = await writeDefaultConfig("persistence:\n  data_dir: /srv/xzatoma\n");
    const fromFile = await loadConfig({ env: { XZATOMA_HOME: "/other" }, homeDir: home });
    expect(fromFile.config.persistence.data_dir).toBe("/srv/xzatoma");
    expect(fromFile.config.persistence.db_path).toBe("/srv/xzatoma/history.db");
    expect(fromFile.sources["persistence.data_dir"]).toBe(`file:${file}`);
    const derived = await loadConfig({
      env: { XZATOMA_HOME: "/other", XZATOMA_PERSISTENCE_DATA_DIR: "/derived" },
      homeDir: home,
    });
    expect(derived.config.persistence.data_dir).toBe("/derived");
    expect(derived.sources["persistence.data_dir"]).toBe("env:XZATOMA_PERSISTENCE_DATA_DIR");
  });

  it("expands ~ and resolves relative paths in the file against the file's directory", async () => {
    const file = await writeDefaultConfig(
      "persistence:\n  db_path: history/x.db\nlogging:\n  file: ~/logs/xz.log\n",
    );
    const loaded = await loadConfig({ env: {}, homeDir: home, cwd: "/elsewhere" });
    expect(loaded.config.persistence.db_path).toBe(path.join(path.dirname(file), "history/x.db"));
    expect(loaded.config.logging.file).toBe(path.join(home, "logs", "xz.log"));
  });

  it("normalises tool packages and keeps their options untouched", async () => {
    await writeDefaultConfig(
      "agent:\n  tools:\n    packages:\n      - '@acme/a'\n      - name: '@acme/b'\n        options: { base_dir: notes, Depth: 2 }\n",
    );
    const loaded = await loadConfig({ env: {}, homeDir: home });
    expect(loaded.config.agent.tools.packages).toEqual([
      { name: "@acme/a", options: {} },
      { name: "@acme/b", options: { base_dir: "notes", Depth: 2 } },
    ]);
  });
});

describe("invalid configuration", () => {
  it("names the key path, the expectation and the file line for a bad type", async () => {
    const file = await writeDefaultConfig("# settings\nagent:\n  max_turns: ten\n");
    const problems = await problemsOf({});
    expect(problems).toEqual([
      {
        source: `file:${file}`,
        keyPath: "agent.max_turns",
        message: 'expected an integer from 1 to 1000, got "ten"',
        line: 3,
        column: 14,
      },
    ]);
    expect(await messageOf({})).toBe(
      `Invalid configuration: ${file}:3:14: agent.max_turns: expected an integer from 1 to 1000, got "ten"`,
    );
  });

  it("reports values out of range", async () => {
    await writeDefaultConfig(
      "agent:\n  max_turns: 5000\n  conversation:\n    prune_threshold: 1.5\n  fetch:\n    allowed_ports: [443, 70000]\n",
    );
    const problems = await problemsOf({});
    expect(problems.map((problem) => `${problem.keyPath}: ${problem.message}`)).toEqual([
      "agent.max_turns: expected an integer from 1 to 1000, got 5000",
      "agent.conversation.prune_threshold: expected a number greater than 0 and at most 1, or false, got 1.5",
      "agent.fetch.allowed_ports[1]: expected a port number from 1 to 65535, got 70000",
    ]);
  });

  it("refuses unknown keys, suggesting the key meant", async () => {
    await writeDefaultConfig(
      "agent:\n  max_turn: 3\n  default_mode: write\nprovider:\n  typo: x\nextras: 1\n",
    );
    const problems = await problemsOf({});
    expect(problems.map((problem) => [problem.keyPath, problem.message, problem.line])).toEqual([
      ["agent.max_turn", 'unknown key "max_turn"; did you mean "max_turns"?', 2],
      [
        "agent.default_mode",
        'unknown key "default_mode" here; did you mean agent.terminal.default_mode or agent.chat.default_mode?',
        3,
      ],
      ["provider.typo", 'unknown key "typo"; did you mean "type"?', 5],
      [
        "extras",
        'unknown key "extras"; the keys here are: provider, agent, persistence, logging, mcp, hooks, watcher, xzepr',
        6,
      ],
    ]);
  });

  it("caps every duration that ends in a timer at the longest a timer can wait", async () => {
    // setTimeout fires after 1 ms for a delay over 2^31 - 1 ms: a cap that enforced nothing.
    const keys = [
      "provider.ollama.request_timeout_seconds",
      "provider.openai.request_timeout_seconds",
      "agent.timeout_seconds",
      "agent.terminal.timeout_seconds",
      "agent.fetch.timeout_seconds",
      "agent.subagent.max_total_time",
      "agent.quota.max_total_time_seconds",
    ];
    const variable = (key: string) => `XZATOMA_${key.toUpperCase().replaceAll(".", "_")}`;
    const over = await problemsOf({
      env: Object.fromEntries(keys.map((key) => [variable(key), "2147484"])),
    });
    expect(over.map((problem) => [problem.keyPath, problem.message])).toEqual(
      keys.map((key) => [
        key,
        "expected a whole number of seconds from 1 to 2147483 (about 24.8 days, the longest a timer can wait), got 2147484",
      ]),
    );
    const longest = await loadConfig({
      env: Object.fromEntries(keys.map((key) => [variable(key), "2147483"])),
      homeDir: home,
    });
    expect(longest.config.agent.timeout_seconds).toBe(2_147_483);
  });

  it("refuses a value outside an enum, with a suggestion", async () => {
    await writeDefaultConfig(
      "provider:\n  type: olama\nagent:\n  terminal:\n    default_mode: restricted\n",
    );
    const problems = await problemsOf({});
    expect(problems.map((problem) => problem.message)).toEqual([
      'expected one of ollama, openai, copilot, local, got "olama"; did you mean "ollama"?',
      'expected one of interactive, restricted_autonomous, full_autonomous, got "restricted"; did you mean "restricted_autonomous"?',
    ]);
  });

  it("reports invalid YAML with the file and line", async () => {
    const file = await writeDefaultConfig("agent:\n  max_turns: 5\n  tools: [1\nprovider: x\n");
    const problems = await problemsOf({});
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]?.source).toBe(`file:${file}`);
    expect(problems[0]?.line).toBe(4);
    expect(problems[0]?.message).toMatch(/^invalid YAML: /);
    expect(await messageOf({})).toContain(`${file}:4:`);
  });

  it("treats a key without a value as not set, and words a wrong section type", async () => {
    await writeDefaultConfig("agent:\n  # max_turns: 10\nlogging:\n  file:\n");
    const loaded = await loadConfig({ env: {}, homeDir: home });
    expect(loaded.config.agent.max_turns).toBe(50);
    expect(loaded.config.logging.file).toBeUndefined();

    await writeDefaultConfig("agent: 5\nprovider:\n  ollama: {}\n");
    expect(await problemsOf({})).toMatchObject([
      { keyPath: "agent", message: "expected a mapping of settings (key: value), got 5", line: 1 },
    ]);
    await writeDefaultConfig("agent:\n  tools:\n    packages: '@acme/a'\n");
    expect((await problemsOf({}))[0]?.message).toBe(
      'expected a list of package names or { name, options }, got "@acme/a"',
    );
  });

  it("refuses duplicate keys and a file that is not a mapping", async () => {
    const file = await writeDefaultConfig("agent:\n  max_turns: 5\n  max_turns: 6\n");
    expect(await problemsOf({})).toEqual([
      {
        source: `file:${file}`,
        message: "invalid YAML: Map keys must be unique: 'max_turns' is repeated",
        line: 3,
        column: 3,
      },
    ]);
    // The same setting however the key is written; each repeat is reported where it is.
    await writeDefaultConfig(
      'agent:\n  "max_turns": 5\n  max_turns: 6\nlogging: {}\nlogging: {}\n',
    );
    expect((await problemsOf({})).map((problem) => problem.line)).toEqual([3, 5]);
    await writeDefaultConfig('"1": a\n1: b\n');
    expect((await problemsOf({}))[0]).toMatchObject({
      message: "invalid YAML: Map keys must be unique: '1' is repeated",
      line: 2,
    });
    await writeDefaultConfig("- a\n- b\n");
    expect((await problemsOf({}))[0]?.message).toMatch(/must hold a mapping of settings/);
  });

  it("refuses credentials in the config file and says where they belong, naming no command", async () => {
    await writeDefaultConfig(
      "provider:\n  type: openai\n  openai:\n    api_key: sk-abcdefabcdefabcdefabcdef\n  copilot:\n    token: x\n",
    );
    const problems = await problemsOf({});
    expect(problems.map((problem) => [problem.keyPath, problem.line])).toEqual([
      ["provider.openai.api_key", 4],
      ["provider.copilot.token", 6],
    ]);
    expect(problems[0]?.message).toBe(
      "credentials never live in the config file; remove this key and keep it in the keyring or the environment variable OPENAI_API_KEY",
    );
    // The facts a front end words its own sign-in advice from; the library names no command.
    expect(
      problems.map(({ reason, provider, variable }) => ({ reason, provider, variable })),
    ).toEqual([
      { reason: "credential-in-file", provider: "openai", variable: "OPENAI_API_KEY" },
      { reason: "credential-in-file", provider: "copilot", variable: "COPILOT_GITHUB_TOKEN" },
    ]);
    const message = await messageOf({});
    expect(message).not.toContain("sk-abcdef");
    expect(message).not.toMatch(/xzatoma |auth login/);
  });

  it("refuses a URL with a password in it without repeating the password", async () => {
    await writeDefaultConfig(
      "provider:\n  openai:\n    base_url: https://me:hunter2@llm.example/v1\n",
    );
    const message = await messageOf({});
    expect(message).toContain("provider.openai.base_url: expected an http or https URL");
    expect(message).not.toContain("hunter2");
  });

  it("names the environment variable and the flag that hold bad values", async () => {
    const problems = await problemsOf({
      env: {
        XZATOMA_AGENT_MAX_TURNS: "ten",
        XZATOMA_AGENT_TERMINAL_SANDBOX: "maybe",
        XZATOMA_PROVIDER: "gpt",
      },
      flags: { timeout: 0 },
      flagMappings: TEST_FLAG_MAPPINGS,
    });
    expect(problems).toEqual([
      {
        source: "env:XZATOMA_PROVIDER",
        keyPath: "provider.type",
        message: 'expected one of ollama, openai, copilot, local, got "gpt"',
      },
      {
        source: "env:XZATOMA_AGENT_MAX_TURNS",
        keyPath: "agent.max_turns",
        message: 'expected an integer from 1 to 1000, got "ten"',
      },
      {
        source: "env:XZATOMA_AGENT_TERMINAL_SANDBOX",
        keyPath: "agent.terminal.sandbox",
        message: 'expected true or false, got "maybe"',
      },
      {
        source: "flag:--timeout",
        keyPath: "agent.timeout_seconds",
        message:
          "expected a whole number of seconds from 1 to 2147483 (about 24.8 days, the longest a timer can wait), got 0",
      },
    ]);
    expect(await messageOf({ env: { XZATOMA_AGENT_MAX_TURNS: "ten" } })).toBe(
      'Invalid configuration: environment variable XZATOMA_AGENT_MAX_TURNS: agent.max_turns: expected an integer from 1 to 1000, got "ten"',
    );
  });

  it("reports every problem of every source at once", async () => {
    await writeDefaultConfig("agent:\n  max_turns: 0\n  bogus: 1\n");
    const problems = await problemsOf({
      env: { XZATOMA_AGENT_CONVERSATION_MAX_TOKENS: "lots" },
      flags: { mode: "x" },
      flagMappings: TEST_FLAG_MAPPINGS,
    });
    expect(problems.map((problem) => problem.keyPath)).toEqual([
      "agent.max_turns",
      "agent.bogus",
      "agent.conversation.max_tokens",
      "agent.chat.default_mode",
    ]);
  });

  it("checks rules across keys after merging, naming where the offending value came from", async () => {
    await writeDefaultConfig("agent:\n  conversation:\n    warning_threshold: 0.9\n");
    const problems = await problemsOf({
      env: { XZATOMA_AGENT_CONVERSATION_CRITICAL_THRESHOLD: "0.5" },
    });
    expect(problems).toEqual([
      {
        source: "env:XZATOMA_AGENT_CONVERSATION_CRITICAL_THRESHOLD",
        keyPath: "agent.conversation.critical_threshold",
        message: "must be at least warning_threshold (0.9), got 0.5",
      },
    ]);
  });

  it("is an error for a missing named file or XZATOMA_CONFIG file, but not for a missing default file", async () => {
    const missing = path.join(home, "nope.yaml");
    const problems = await problemsOf({ configPath: missing });
    // The caller named the path; which option it calls that is the caller's to say.
    expect(problems).toEqual([
      {
        source: `file:${missing}`,
        message: "the config file does not exist; check the path given",
        reason: "config-file-missing",
      },
    ]);
    expect(await problemsOf({ env: { XZATOMA_CONFIG: missing } })).toEqual([
      {
        source: `file:${missing}`,
        message: "the config file does not exist; check the path XZATOMA_CONFIG names",
        reason: "config-file-missing",
        variable: "XZATOMA_CONFIG",
      },
    ]);
    await expect(loadConfig({ env: {}, homeDir: home })).resolves.toMatchObject({
      configFileFound: false,
    });
  });

  it("resolves a relative --config against the working directory and reads it", async () => {
    await writeFile(path.join(home, "custom.yaml"), "agent:\n  max_turns: 3\n");
    const loaded = await loadConfig({
      configPath: "custom.yaml",
      env: {},
      homeDir: home,
      cwd: home,
    });
    expect(loaded.configPath).toBe(path.join(home, "custom.yaml"));
    expect(loaded.config.agent.max_turns).toBe(3);
  });

  it("is an XZatoma error with code CONFIG_INVALID", async () => {
    try {
      await loadConfig({ env: { XZATOMA_AGENT_MAX_TURNS: "x" }, homeDir: home });
      expect.unreachable();
    } catch (error) {
      expect(isXzatomaError(error)).toBe(true);
      expect((error as ConfigError).code).toBe("CONFIG_INVALID");
    }
  });
});

describe("the subagent, quota, watcher and xzepr sections", () => {
  it("accepts their keys like any other, without a warning", async () => {
    await writeDefaultConfig(
      [
        "agent:",
        "  subagent:",
        "    max_depth: 4",
        "  quota: {}",
        "watcher:",
        "  watcher_type: generic",
        "  kafka:",
        "    brokers: kafka.example.com:9092",
        "    security: { protocol: sasl_ssl }",
        "  filters: { event_types: [work.created] }",
        "xzepr:",
        "  api_url: https://xzepr.example.com",
        "",
      ].join("\n"),
    );
    const loaded = await loadConfig({ env: {}, homeDir: home });
    expect(loaded.config.agent.subagent).toEqual({
      enabled: false,
      max_depth: 4,
      default_max_turns: 10,
      output_max_size: 16_384,
      max_concurrent: 5,
      persistence_enabled: true,
    });
    expect(loaded.config.agent.quota).toEqual({
      max_executions: 100,
      max_total_tokens: 1_000_000,
      max_total_tool_calls: 1000,
      max_total_time_seconds: 3600,
    });
    expect(loaded.config.watcher?.watcher_type).toBe("generic");
    expect(loaded.config.watcher?.kafka.group_id).toBe("xzatoma-watcher");
    expect(loaded.config.watcher?.kafka.security?.protocol).toBe("SASL_SSL");
    expect(loaded.config.watcher?.filters.event_types).toEqual(["work.created"]);
    expect(loaded.config.xzepr?.api_url).toBe("https://xzepr.example.com");
    expect(loaded.warnings).toEqual([]);
  });

  it("reads the quota's older names under agent.subagent, with a warning naming the file and key", async () => {
    const file = await writeDefaultConfig(
      [
        "agent:",
        "  subagent:",
        "    max_executions: 7",
        "    max_total_tokens: 5000",
        "    max_total_time: 60",
        "  quota:",
        "    max_executions: 9",
        "",
      ].join("\n"),
    );
    const loaded = await loadConfig({
      env: { XZATOMA_AGENT_SUBAGENT_MAX_TOTAL_TIME: "90" },
      homeDir: home,
    });
    expect(loaded.config.agent.subagent.max_executions).toBe(7);
    expect(loaded.config.agent.subagent.max_total_tokens).toBe(5000);
    expect(loaded.config.agent.subagent.max_total_time).toBe(90);
    expect(loaded.config.agent.quota.max_executions).toBe(9);
    expect(loaded.warnings).toEqual([
      `agent.subagent.max_executions (set by file:${file}) is deprecated: use agent.quota.max_executions (this older name still wins over it while it is set).`,
      `agent.subagent.max_total_tokens (set by file:${file}) is deprecated: use agent.quota.max_total_tokens (this older name still wins over it while it is set).`,
      "agent.subagent.max_total_time (set by env:XZATOMA_AGENT_SUBAGENT_MAX_TOTAL_TIME) is deprecated: use agent.quota.max_total_time_seconds (this older name still wins over it while it is set).",
    ]);
    const current = await writeDefaultConfig("agent:\n  quota:\n    max_executions: 9\n");
    expect(current).toBe(file);
    expect((await loadConfig({ env: {}, homeDir: home })).warnings).toEqual([]);
  });

  it("leaves the watcher and xzepr sections out of the configuration when they are not set", async () => {
    const loaded = await loadConfig({ env: {}, homeDir: home });
    expect(loaded.config.watcher).toBeUndefined();
    expect(loaded.config.xzepr).toBeUndefined();
    expect(
      Object.keys(loaded.sources).some(
        (key) => key.startsWith("watcher") || key.startsWith("xzepr"),
      ),
    ).toBe(false);
  });

  it("says what replaces the original's subagent and chat keys instead of calling them unknown", async () => {
    await writeDefaultConfig(
      "agent:\n  subagent:\n    telemetry_enabled: true\n    persistence_path: /tmp/c.db\n    provider_override: false\n    chat_enabled: true\n  chat:\n    allow_mode_switching: true\n",
    );
    const problems = await problemsOf({});
    expect(
      problems.map((problem) => `${problem.line}: ${problem.keyPath}: ${problem.message}`),
    ).toEqual([
      `3: agent.subagent.telemetry_enabled: "telemetry_enabled" is not taken by this version: subagents report through the run's telemetry, which is on or off as a whole; remove this key`,
      `4: agent.subagent.persistence_path: "persistence_path" is not taken by this version: subagents' conversations are stored under their parent's in the history database of the data directory (persistence.data_dir); remove this key`,
      `5: agent.subagent.provider_override: "provider_override" is not taken by this version: set agent.subagent.provider (and agent.subagent.model) to run subagents on another provider; remove this key`,
      `6: agent.subagent.chat_enabled: "chat_enabled" is not taken by this version: subagent and parallel_subagent are always offered in chat and in editor sessions, and in run when agent.subagent.enabled is true; remove this key`,
      `8: agent.chat.allow_mode_switching: "allow_mode_switching" is not taken by this version: the mode can always be switched (/mode); remove this key`,
    ]);
  });

  it("validates their values and keys like any other", async () => {
    await writeDefaultConfig(
      "agent:\n  subagent:\n    max_depth: 20\n    output_max_size: 512\nwatcher:\n  kafka:\n    security: { protocol: TLS }\n    bootstrap_servers: x\n",
    );
    const problems = await problemsOf({ env: { XZATOMA_WATCHER_WATCHER_TYPE: "kafka" } });
    expect(
      problems
        .slice(0, -1)
        .map((problem) => `${problem.line}: ${problem.keyPath}: ${problem.message}`),
    ).toEqual([
      "3: agent.subagent.max_depth: expected an integer from 1 to 10, got 20",
      "4: agent.subagent.output_max_size: expected an integer of at least 1024, got 512",
      '7: watcher.kafka.security.protocol: expected one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL, got "TLS"',
      '8: watcher.kafka.bootstrap_servers: unknown key "bootstrap_servers"; the keys here are: brokers, topic, output_topic, dead_letter_topic, group_id, client_id, instance_id, auto_create_topics, num_partitions, replication_factor, session_timeout_ms, result_mode, security',
    ]);
    expect(problems.at(-1)).toEqual({
      source: "env:XZATOMA_WATCHER_WATCHER_TYPE",
      keyPath: "watcher.watcher_type",
      message: 'expected one of XZEPR, GENERIC, got "kafka"',
    });
  });

  it("refuses a result or dead-letter topic that is the input topic, naming the keys", async () => {
    await writeDefaultConfig(
      "watcher:\n  kafka:\n    topic: builds\n    output_topic: builds\n    dead_letter_topic: builds\n",
    );
    expect(await problemsOf({})).toEqual([
      expect.objectContaining({
        keyPath: "watcher.kafka.output_topic",
        line: 4,
        message:
          'watcher.kafka.output_topic is the input topic watcher.kafka.topic ("builds"): the watcher would consume its own results again. Give the results a topic of their own',
      }),
      expect.objectContaining({
        keyPath: "watcher.kafka.dead_letter_topic",
        line: 5,
        message:
          'watcher.kafka.dead_letter_topic is the input topic watcher.kafka.topic ("builds"): the watcher would consume its dead letters again. Give them a topic of their own',
      }),
    ]);
  });

  it("refuses a duration a timer cannot wait, naming the key and the maximum", async () => {
    const problems = await problemsOf({
      env: {
        XZATOMA_WATCHER_EXECUTION_EXECUTION_TIMEOUT_SECS: "3000000",
        XZATOMA_WATCHER_EXECUTION_RETRY_BACKOFF_MS: "2147483648",
      },
    });
    expect(problems).toEqual([
      {
        source: "env:XZATOMA_WATCHER_EXECUTION_EXECUTION_TIMEOUT_SECS",
        keyPath: "watcher.execution.execution_timeout_secs",
        message:
          "expected a whole number of seconds from 1 to 2147483 (about 24.8 days, the longest a timer can wait), got 3000000",
      },
      {
        source: "env:XZATOMA_WATCHER_EXECUTION_RETRY_BACKOFF_MS",
        keyPath: "watcher.execution.retry_backoff_ms",
        message:
          "expected a whole number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest a timer can wait), got 2147483648",
      },
    ]);
  });

  it("refuses their credentials like any other", async () => {
    await writeDefaultConfig(
      "xzepr:\n  api_token: abc\nwatcher:\n  kafka:\n    security:\n      sasl_password: def\n",
    );
    expect((await problemsOf({})).map((problem) => problem.keyPath)).toEqual([
      "xzepr.api_token",
      "watcher.kafka.security.sasl_password",
    ]);
  });

  it("reads their environment variables like any other", async () => {
    const loaded = await loadConfig({
      env: {
        XZATOMA_WATCHER_KAFKA_TOPIC: "builds",
        XZATOMA_WATCHER_WATCHER_TYPE: "generic",
        XZATOMA_AGENT_QUOTA_MAX_EXECUTIONS: "7",
      },
      homeDir: home,
    });
    expect(loaded.config.watcher?.kafka.topic).toBe("builds");
    expect(loaded.sources["watcher.kafka.topic"]).toBe("env:XZATOMA_WATCHER_KAFKA_TOPIC");
    expect(loaded.config.watcher?.watcher_type).toBe("generic");
    expect(loaded.config.agent.quota.max_executions).toBe(7);
    expect(loaded.warnings).toEqual([]);
  });
});

describe("options for other front ends", () => {
  it("reads flags only through the front end's table", async () => {
    const untabled = await loadConfig({ env: {}, flags: { maxTurns: 30 }, homeDir: home });
    expect(untabled.config.agent.max_turns).toBe(50);
    expect(untabled.sources["agent.max_turns"]).toBe("default");

    const own = await loadConfig({
      env: {},
      flags: { turns: "7", backend: "OpenAI", llm: "gpt-x" },
      flagMappings: [
        { option: "turns", flag: "--turns", key: "agent.max_turns", kind: "number" },
        {
          option: "backend",
          flag: "--backend",
          key: "provider.type",
          kind: "text",
          toValue: (value) => String(value).toLowerCase(),
        },
        { option: "llm", flag: "--llm", key: SELECTED_MODEL_KEY, kind: "text" },
      ],
      homeDir: home,
    });
    expect(own.config.agent.max_turns).toBe(7);
    expect(own.sources["agent.max_turns"]).toBe("flag:--turns");
    expect(own.config.provider.type).toBe("openai");
    expect(own.config.provider.openai.model).toBe("gpt-x");
    expect(own.sources["provider.openai.model"]).toBe("flag:--llm");
  });

  it("takes another default config file, which may be absent", async () => {
    const absent = await loadConfig({
      env: {},
      homeDir: home,
      cwd: home,
      defaultConfigPath: "~/service/config.yaml",
    });
    expect(absent.configPath).toBe(path.join(home, "service", "config.yaml"));
    expect(absent.configFileFound).toBe(false);

    await mkdir(path.join(home, "service"));
    await writeFile(path.join(home, "service", "config.yaml"), "agent:\n  max_turns: 4\n");
    const found = await loadConfig({
      env: {},
      homeDir: home,
      defaultConfigPath: path.join(home, "service", "config.yaml"),
    });
    expect(found.configFileFound).toBe(true);
    expect(found.config.agent.max_turns).toBe(4);

    const named = await loadConfig({
      env: { XZATOMA_CONFIG: path.join(home, "service", "config.yaml") },
      homeDir: home,
      defaultConfigPath: "~/elsewhere.yaml",
    });
    expect(named.configPath).toBe(path.join(home, "service", "config.yaml"));
  });

  it("names the front end's own config option when the named file is missing", async () => {
    const missing = path.join(home, "nope.yaml");
    expect(await problemsOf({ configPath: missing, configFlag: "--config-file" })).toEqual([
      {
        source: `file:${missing}`,
        message:
          "the config file does not exist; check the path given with --config-file or XZATOMA_CONFIG",
        reason: "config-file-missing",
      },
    ]);
  });
});

describe("validateConfigFile", () => {
  it("validates one file without the environment", async () => {
    const file = path.join(home, "c.yaml");
    await writeFile(file, "provider:\n  type: copilot\nagent: {}\n");
    const previous = process.env["XZATOMA_AGENT_MAX_TURNS"];
    process.env["XZATOMA_AGENT_MAX_TURNS"] = "not a number";
    try {
      const result = await validateConfigFile(file, { homeDir: home });
      expect(result.valid).toBe(true);
      expect(result.config?.provider.type).toBe("copilot");
    } finally {
      if (previous === undefined) delete process.env["XZATOMA_AGENT_MAX_TURNS"];
      else process.env["XZATOMA_AGENT_MAX_TURNS"] = previous;
    }
    await writeFile(file, "agent:\n  max_turns: 0\n");
    const invalid = await validateConfigFile(file, { homeDir: home });
    expect(invalid.valid).toBe(false);
    expect(invalid.problems[0]?.keyPath).toBe("agent.max_turns");
    expect((await validateConfigFile(path.join(home, "none.yaml"))).valid).toBe(false);
  });

  it("accepts an injected reader", async () => {
    const result = await validateConfigFile("/virtual/config.yaml", {
      homeDir: home,
      readFile: async () => "logging:\n  file: /virtual/chat.log\n",
    });
    expect(result.config?.logging.file).toBe("/virtual/chat.log");
  });
});
