import { describe, expect, it } from "vitest";
import { collectProcess } from "./collect-process.js";

const options = {
  cwd: "/",
  env: { PATH: "/usr/bin:/bin" },
  stdio: ["ignore", "pipe", "pipe"] as ("ignore" | "pipe")[],
  detached: true,
  maxBuffer: { stdout: 1_000_000, stderr: 1_000_000 },
};

describe("collectProcess", () => {
  it("collects both streams whole, decoded as UTF-8, and the exit code", async () => {
    const running = collectProcess(
      "/bin/bash",
      ["-c", "printf 'grüße\\n'; printf 'x%.0s' $(seq 70000); echo err >&2; exit 3"],
      options,
    );
    expect(running.pid).toBeGreaterThan(0);
    const result = await running.result;
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe(`grüße\n${"x".repeat(70_000)}`);
    expect(result.stderr).toBe("err\n");
    expect(result.cut).toBeUndefined();
  });

  it("passes only the environment it is given", async () => {
    const result = await collectProcess("/bin/bash", ["-c", "env"], {
      ...options,
      env: { ONLY: "this" },
    }).result;
    expect(result.stdout.split("\n").filter((line) => line.startsWith("ONLY="))).toEqual([
      "ONLY=this",
    ]);
    expect(result.stdout).not.toContain("HOME=");
  });

  it("stops the process at a stream's limit and names the stream", async () => {
    const result = await collectProcess("/bin/bash", ["-c", "yes; sleep 30"], {
      ...options,
      maxBuffer: { stdout: 4096, stderr: 10 },
    }).result;
    expect(result.cut).toBe("stdout");
    expect(result.stdout).toBe("y\n".repeat(2048));
    expect(result.exitCode).toBeUndefined(); // ended by SIGTERM
  });

  it("reports a program that cannot be started", async () => {
    const result = await collectProcess("/nonexistent/program", [], options).result;
    expect(result.spawnError?.message).toContain("ENOENT");
    expect(result.exitCode).toBeUndefined();
  });
});
