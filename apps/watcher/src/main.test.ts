import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/xzatoma-watcher.js", import.meta.url));
const BUILD_EVENT = fileURLToPath(
  new URL("../../../packages/xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
);

function watcher(...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("xzatoma-watcher check-event", () => {
  it("accepts a recorded XZepr event that passes the filters", () => {
    expect(
      watcher("check-event", BUILD_EVENT, "--success-only", "--event-type", "build.success"),
    ).toEqual({
      code: 0,
      stdout: `accepted: ${BUILD_EVENT} (build.success)\n`,
      stderr: "",
    });
  });

  it("says why an event is skipped, as JSON when asked", () => {
    const result = watcher(
      "check-event",
      BUILD_EVENT,
      "--event-type",
      "deployment.success",
      "--json",
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      file: BUILD_EVENT,
      accepted: false,
      verdict: "filter",
      reason: "type 'build.success' is not one of deployment.success",
      type: "build.success",
      id: "01JXZEPR0BUILD0DEMO000001",
      source: "xzepr.event.receiver.demo-receiver-001",
    });
  });

  it("reports usage errors with exit 2", () => {
    expect(watcher("check-event").code).toBe(2);
    expect(watcher("check-event", BUILD_EVENT, "--source-pattern", "([").stderr).toContain(
      "filters.source_pattern",
    );
    expect(watcher("serve").stderr).toContain("unknown command 'serve'");
  });
});

describe("xzatoma-watcher exit codes", () => {
  it("gives 2 for a malformed flag and 1 for a configuration that cannot be read", () => {
    const bogus = watcher("run", "--bogus");
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("--bogus");
    const missing = watcher("run", "--config", "no-such-watcher-config.yaml");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no-such-watcher-config.yaml");
  });

  it("publish and results check their arguments before connecting", () => {
    const none = watcher("publish", "--config", "x.yaml");
    expect(none).toMatchObject({ code: 2 });
    expect(none.stderr).toContain("at least one EVENT file");
    const count = watcher("results", "--config", "x.yaml", "--count", "0");
    expect(count).toMatchObject({ code: 2 });
    expect(count.stderr).toContain("--count must be a positive whole number");
    const timeout = watcher("results", "--config", "x.yaml", "--timeout", "soon");
    expect(timeout.stderr).toContain("--timeout must be a number of seconds");
    expect(watcher("publish", BUILD_EVENT).stderr).toContain("publish needs --config FILE");
  });
});

describe("xzatoma-watcher on a Node older than 22.16", () => {
  it("says which Node it needs and found, in one line, exit 1", () => {
    // This Node, told it is 20: the check reads process.versions before anything loads.
    const fake = "Object.defineProperty(process.versions,'node',{value:'20.19.0'})";
    const result = spawnSync(
      process.execPath,
      ["--import", `data:text/javascript,${fake}`, BIN, "run", "--config", "x.yaml"],
      { encoding: "utf8" },
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `xzatoma-watcher: needs Node.js 22.16 or newer, but ${process.execPath} is Node 20.19.0; install Node 24 and run it with that.\n`,
    );
  });
});
