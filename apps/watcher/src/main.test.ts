import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

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
  it("gives 2 for a malformed flag and for a configuration that cannot be read (run did not start)", () => {
    const bogus = watcher("run", "--bogus");
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("--bogus");
    const missing = watcher("run", "--config", "no-such-watcher-config.yaml");
    expect(missing.code).toBe(2);
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

describe("xzatoma-watcher on a Node older than 22.19", () => {
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
      `xzatoma-watcher: needs Node.js 22.19 or newer, but ${process.execPath} is Node 20.19.0; install Node 24 and run it with that.\n`,
    );
  });
});

describe("xzatoma-watcher <command> --help", () => {
  it("prints each command's own usage, options and exit codes, exit 0, and connects to nothing", () => {
    for (const [command, option] of [
      ["run", "--dry-run"],
      ["publish", "--key KEY"],
      ["results", "--count N"],
      ["dlq", "replay REF..."],
      ["ledger", "forget EVENT_ID"],
      ["run-event", "--workspace DIR"],
      ["check-event", "--event-type TYPE"],
    ] as const) {
      const result = watcher(command, "--help");
      expect(result.code, command).toBe(0);
      expect(result.stdout).toContain(`Usage: xzatoma-watcher ${command} `);
      expect(result.stdout).toContain(option);
      expect(result.stdout).toContain("Exit codes:");
      expect(result.stderr).toBe("");
    }
    // -h too, after other flags, and `help COMMAND`.
    expect(watcher("run", "--config", "x.yaml", "-h").stdout).toContain(
      "Usage: xzatoma-watcher run ",
    );
    expect(watcher("help", "dlq").stdout).toContain("Usage: xzatoma-watcher dlq ");
    expect(watcher("help", "nope")).toMatchObject({ code: 2 });
    // The overall help lists every command.
    const all = watcher("--help").stdout;
    for (const command of [
      "run",
      "publish",
      "results",
      "dlq",
      "ledger",
      "run-event",
      "check-event",
    ]) {
      expect(all).toContain(`\n  ${command} `);
    }
  });

  it("dlq and ledger check their arguments before connecting", () => {
    expect(watcher("dlq")).toMatchObject({ code: 2 });
    expect(watcher("dlq", "replay", "--config", "x.yaml").stderr).toContain(
      "REF... (PARTITION:OFFSET or a key), --all or --code",
    );
    expect(watcher("dlq", "list", "--config", "x.yaml", "--code", "bogus").stderr).toContain(
      "--code must be one of too_large, tombstone, undecodable, no_plan, invalid_plan",
    );
    expect(watcher("ledger", "show")).toMatchObject({ code: 2 });
    expect(watcher("ledger", "drop", "e1").stderr).toContain("ledger needs show or forget");
  });
});

describe("xzatoma-watcher run: checks before joining the group", () => {
  const home = mkdtempSync(path.join(os.tmpdir(), "xz-watcher-start-"));
  const servers: Server[] = [];
  afterAll(() => {
    for (const server of servers) server.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** A port of 127.0.0.1 held by another listener, as when two services share a port. */
  async function takenPort(): Promise<number> {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const address = server.address();
    return typeof address === "object" && address ? address.port : 0;
  }

  /** A port nothing listens on: bound and closed again. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const address = server.address();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return typeof address === "object" && address ? address.port : 0;
  }

  function configWith(name: string, watcherSection: Record<string, unknown>): string {
    const file = path.join(home, `${name}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        provider: { type: "openai", openai: { base_url: "http://127.0.0.1:9/v1", model: "m" } },
        persistence: { data_dir: path.join(home, name) },
        watcher: watcherSection,
      }),
    );
    return file;
  }

  /** Runs `xzatoma-watcher run` to its end (the tests' own deadline bounds it). */
  function run(config: string): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, "run", "--config", config, "--workspace", home], {
        env: { ...process.env, OPENAI_API_KEY: "sk-test", XZATOMA_HOME: home },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.once("exit", (code) => resolve({ code, stderr }));
    });
  }

  it("reports a health port in use at once, exit 2, without touching Kafka", async () => {
    const port = await takenPort();
    const unreachable = await closedPort();
    const result = await run(
      configWith("clash", {
        kafka: { brokers: `127.0.0.1:${unreachable}` },
        health: { port, host: "127.0.0.1" },
      }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `Cannot serve the health endpoint on 127.0.0.1:${port}: the port is in use (watcher.health.port, watcher.health.host).`,
    );
    // Said before anything tried the broker.
    expect(result.stderr).not.toMatch(/Kafka|kafka/);
  }, 120_000);

  it("exits 2 with a message that names the brokers when none can be reached", async () => {
    const unreachable = await closedPort();
    const result = await run(
      configWith("unreachable", { kafka: { brokers: `127.0.0.1:${unreachable}` } }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `error: the service did not start: The admin client could not reach Kafka at 127.0.0.1:${unreachable}`,
    );
  }, 120_000);

  it("exits 2 naming the key when a filter is not valid", async () => {
    const result = await run(
      configWith("bad-filter", {
        kafka: { brokers: "127.0.0.1:9" },
        filters: { source_pattern: "([" },
      }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("filters.source_pattern");
  }, 120_000);
});
