import { readFileSync } from "node:fs";
import { startScriptedXzepr, type ScriptedXzepr } from "@xzatoma/scripted-servers/xzepr";
import { xzeprConfigSchema } from "@xzatoma/xzepr/config";
import { afterEach, describe, expect, it } from "vitest";
import { createXzeprReporter, watcherPackageVersion } from "./xzepr-reporter.js";

let xzepr: ScriptedXzepr | undefined;

afterEach(async () => {
  await xzepr?.close();
  xzepr = undefined;
});

const result = {
  trigger: { id: "e1", source: "ci", type: "build.success" },
  status: "completed" as const,
  summary: "The event's prompt completed.",
  report: { stopReason: "completed", text: "ok" },
  durationMs: 12,
};

async function reportedRelease(release?: string): Promise<unknown> {
  xzepr = await startScriptedXzepr({ token: "xz-token" });
  const config = xzeprConfigSchema.parse({ api_url: xzepr.url, report_results: true });
  const report = createXzeprReporter(config, { baseUrl: xzepr.url, token: "xz-token" }, release);
  await report(result);
  const [event] = [...xzepr.events.values()];
  return (event as { release?: unknown } | undefined)?.release;
}

describe("createXzeprReporter", () => {
  it("posts results with the watcher package's version as the release when none is given", async () => {
    const manifest = JSON.parse(
      readFileSync(new URL("../../../watcher/package.json", import.meta.url), "utf8"),
    ) as { version: string };
    expect(watcherPackageVersion()).toBe(manifest.version);
    expect(await reportedRelease()).toBe(manifest.version);
  });

  it("posts the front end's release when given", async () => {
    expect(await reportedRelease("9.9.9")).toBe("9.9.9");
  });
});
