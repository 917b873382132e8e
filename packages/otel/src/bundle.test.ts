// The built package carries the OpenTelemetry SDK in its own files (only
// `@opentelemetry/api` is a dependency), and loads those files only inside startSdk.
// Checked on the built package, in a fresh process that records every module it resolves.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const distDirectory = new URL("../dist/", import.meta.url).href;
const dist = new URL("index.js", distDirectory).href;

/** The modules `code` resolves: OpenTelemetry packages by name (not their inner files), this bundle's files by file. */
function modulesLoadedBy(code: string): string[] {
  const script = `
import { registerHooks } from "node:module";
const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (resolved.url.startsWith(${JSON.stringify(distDirectory)})) {
      seen.add(resolved.url.slice(${distDirectory.length}));
    } else if (resolved.url.includes("@opentelemetry") && !specifier.startsWith(".")) {
      seen.add(specifier);
    }
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

describe("the built @xzatoma/otel", () => {
  it("depends on @opentelemetry/api alone: the SDK is bundled", () => {
    const manifest = JSON.parse(
      readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"),
    ) as { dependencies: Record<string, string> };
    expect(
      Object.keys(manifest.dependencies).filter((name) => name.startsWith("@opentelemetry/")),
    ).toEqual(["@opentelemetry/api"]);
  });

  it("loads none of the SDK, and not the API, when imported (run telemetry included)", () => {
    expect(
      modulesLoadedBy(`
const otel = await import(${JSON.stringify(dist)});
if (typeof otel.startSdk !== "function") throw new Error("no startSdk");
if (typeof otel.createRunTelemetry !== "function") throw new Error("no createRunTelemetry");
`),
    ).toEqual(["index.js"]);
  });

  it("loads the bundled SDK, and no SDK package, when startSdk runs", () => {
    const loaded = modulesLoadedBy(`
const { startSdk } = await import(${JSON.stringify(dist)});
const endpoint = { url: "http://127.0.0.1:9/v1/x", headers: {}, timeoutMs: 1000 };
const telemetry = await startSdk(
  {
    disabled: false,
    serviceName: "bundle-test",
    resourceAttributes: {},
    traces: { ...endpoint, url: "http://127.0.0.1:9/v1/traces" },
    metrics: { ...endpoint, url: "http://127.0.0.1:9/v1/metrics" },
    metricExportIntervalMs: 60000,
    warnings: [],
  },
  { serviceVersion: "1.0.0", scope: "bundle-test", redact: (text) => text },
);
telemetry.tracer.startSpan("work").end();
`);
    expect(loaded.filter((name) => name.startsWith("@opentelemetry"))).toEqual([
      "@opentelemetry/api",
    ]);
    // index.js and the chunks the SDK was split into.
    expect(loaded.length).toBeGreaterThan(3);
    expect(loaded.filter((name) => !/^[\w-]+\.js$/.test(name))).toEqual(["@opentelemetry/api"]);
  });
});
