// Loading @xzatoma/core must load no OpenTelemetry module: the API alone costs a process
// some 15 ms, and only apps that turn telemetry on should pay it. Core holds only the
// telemetry port (types); the implementation is @xzatoma/otel's, which an app loads when
// telemetry is on (its own bundle test checks that loading it loads no SDK). Checked on the
// built package, in a fresh process that records every module it resolves.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const dist = new URL("../dist/index.js", import.meta.url).href;

function openTelemetryModulesLoadedBy(code: string): string[] {
  const script = `
import { registerHooks } from "node:module";
const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (resolved.url.includes("@opentelemetry")) seen.add(specifier);
    return resolved;
  },
});
${code}
console.log(JSON.stringify([...seen]));
`;
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  return JSON.parse(output.trim().split("\n").at(-1) ?? "[]") as string[];
}

describe("@xzatoma/core and OpenTelemetry", () => {
  it("loads no OpenTelemetry module when imported", () => {
    expect(
      openTelemetryModulesLoadedBy(`
const core = await import(${JSON.stringify(dist)});
if (typeof core.Agent !== "function") throw new Error("no Agent");
if ("createRunTelemetry" in core) throw new Error("core still carries the run telemetry");
`),
    ).toEqual([]);
  });

  it("would see a module that loads it (the check above can fail)", () => {
    expect(openTelemetryModulesLoadedBy(`await import("@opentelemetry/api");`)).toContain(
      "@opentelemetry/api",
    );
  });
});
