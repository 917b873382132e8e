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
