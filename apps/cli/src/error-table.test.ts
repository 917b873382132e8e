import { ERROR_CODES } from "@xzatoma/errors";
import { describe, expect, it } from "vitest";
import { ERROR_TABLE, presentError } from "./error-table.js";
import { ExitCode } from "./exit-codes.js";

describe("the error table", () => {
  it("has a row for every error code, and names only flags the CLI has", () => {
    expect(Object.keys(ERROR_TABLE).sort()).toEqual([...ERROR_CODES].sort());
    const flags = new Set<string>();
    for (const row of Object.values(ERROR_TABLE)) {
      for (const provider of ["ollama", "openai", "copilot", "local"]) {
        for (const reason of ["model-missing", "runtime-missing"]) {
          const hint = row.hint?.({ provider, reason }) ?? "";
          for (const flag of hint.match(/--[a-z][a-z-]+/g) ?? []) flags.add(flag);
        }
      }
    }
    expect([...flags].sort()).toEqual(["--base-url", "--host", "--model", "--provider"]);
  });

  it("names the real timeout key of the provider that timed out, never a <type> placeholder", () => {
    const hint = (provider: string) =>
      presentError({
        code: "PROVIDER_TIMEOUT",
        message: "It did not answer.",
        fields: { provider },
      }).lines[1];
    expect(hint("ollama")).toBe(
      "hint: Raise provider.ollama.request_timeout_seconds, or try a smaller model.",
    );
    expect(hint("openai")).toContain("provider.openai.request_timeout_seconds");
    for (const provider of ["ollama", "openai", "copilot", "local"])
      expect(hint(provider)).not.toContain("<");
  });

  it("words an unreachable provider by its kind, and a missing local model by how to get it", () => {
    expect(
      presentError({
        code: "PROVIDER_UNAVAILABLE",
        message: "Cannot reach Ollama at http://127.0.0.1:1.",
        fields: { provider: "ollama" },
      }),
    ).toEqual({
      exit: ExitCode.failure,
      lines: [
        "error [PROVIDER_UNAVAILABLE]: Cannot reach Ollama at http://127.0.0.1:1.",
        "hint: Start Ollama ('ollama serve'), or point OLLAMA_HOST or --host at it.",
      ],
    });
    const local = presentError({
      code: "PROVIDER_UNAVAILABLE",
      message: "No model file at /x.gguf.",
      fields: { provider: "local", reason: "model-missing" },
    });
    expect(local.lines[1]).toContain("tools/start.sh");
  });

  it("words a configuration problem's advice from its fields: sign-in for a credential, --config for a missing file", () => {
    const credential = (provider: string, variable?: string) =>
      presentError({
        code: "CONFIG_INVALID",
        message: "Invalid configuration: ...",
        fields: {
          problems: [
            {
              source: "file:/c.yaml",
              message: "m",
              reason: "credential-in-file",
              provider,
              variable,
            },
          ],
        },
      }).lines[1];
    expect(credential("openai", "OPENAI_API_KEY")).toBe(
      "hint: Sign in with 'xzatoma auth login openai' (the keyring), or set OPENAI_API_KEY.",
    );
    expect(credential("copilot", "COPILOT_GITHUB_TOKEN")).toBe(
      "hint: Sign in with 'xzatoma auth login copilot' (the keyring), or set COPILOT_GITHUB_TOKEN.",
    );
    const missing = (variable?: string) =>
      presentError({
        code: "CONFIG_INVALID",
        message: "Invalid configuration: ...",
        fields: {
          problems: [
            {
              source: "file:/c.yaml",
              message: "m",
              reason: "config-file-missing",
              ...(variable ? { variable } : {}),
            },
          ],
        },
      }).lines[1];
    expect(missing()).toBe("hint: Check the path given with --config or XZATOMA_CONFIG.");
    expect(missing("XZATOMA_CONFIG")).toBe(
      "hint: Point XZATOMA_CONFIG at an existing file, or unset it.",
    );
    expect(
      presentError({ code: "CONFIG_INVALID", message: "x", fields: { problems: [] } }).lines[1],
    ).toBe("hint: Fix the key named above; 'xzatoma config show' prints what is in force.");
  });

  it("words the Kafka, XZepr and history failures from their fields, exiting 1", () => {
    const hint = (code: string, fields: Readonly<Record<string, unknown>>) => {
      const presented = presentError({ code, message: "m", fields });
      expect(presented.exit).toBe(ExitCode.failure);
      return presented.lines[1];
    };
    expect(hint("KAFKA_AUTH_FAILED", { configPath: "watcher.kafka" })).toContain(
      "watcher.kafka.security",
    );
    expect(hint("KAFKA_AUTH_FAILED", {})).toContain("KAFKA_SASL_PASSWORD");
    expect(
      hint("KAFKA_UNAVAILABLE", { brokers: ["kafka-1:9092", "kafka-2:9092"], configPath: "k" }),
    ).toBe(
      "hint: Check that Kafka is running at kafka-1:9092, kafka-2:9092, and k.brokers and k.security.",
    );
    expect(hint("KAFKA_CONSUMER_FAILED", {})).toBeUndefined();
    expect(hint("XZEPR_API_ERROR", { reason: "unauthorized" })).toContain("XZEPR_API_TOKEN");
    expect(hint("XZEPR_API_ERROR", { reason: "network_error" })).toContain("xzepr.api_url");
    expect(hint("XZEPR_API_ERROR", { reason: "not_found" })).toBeUndefined();
    expect(
      hint("HISTORY_SQLITE_UNAVAILABLE", {
        nodeVersion: "20.19.0",
        requiredNodeVersion: ">=22.16",
      }),
    ).toContain("History needs Node.js >=22.16 (this is 20.19.0)");
    expect(hint("HISTORY_MIGRATIONS_MISSING", {})).toContain("persistence.enabled: false");
  });

  it("gives a limit its exit code and an unknown code the failure exit", () => {
    expect(presentError({ code: "CONTEXT_LENGTH_EXCEEDED", message: "full" }).exit).toBe(
      ExitCode.limit,
    );
    expect(presentError({ code: "SOMETHING_NEW", message: "?" })).toEqual({
      exit: ExitCode.failure,
      lines: ["error [SOMETHING_NEW]: ?"],
    });
  });
});
