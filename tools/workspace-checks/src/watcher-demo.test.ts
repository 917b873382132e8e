// The README's watcher demo, `bash tools/watcher-demo.sh`, as a newcomer runs it (its setup
// skipped: the suite has installed and built everything): a broker of its own on a free port,
// the watcher on the scripted model, the seed events, their results. It must exit 0, print
// both results, say which event the filters skipped, show the files the plans wrote, and stop
// the broker it started.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

describe("bash tools/watcher-demo.sh", () => {
  it("starts a broker and the watcher, runs the seed events and prints their results", async () => {
    const port = await freePort();
    const outcome = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn("bash", ["tools/watcher-demo.sh"], {
        cwd: ROOT,
        env: { ...process.env, KAFKA_PORT: String(port), XZATOMA_DEMO_BUILT: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("close", (code) => resolve({ code, output }));
    });
    expect(outcome.output).toContain(`broker: 127.0.0.1:${port}`);
    expect(outcome.code).toBe(0);
    expect(outcome.output).toMatch(
      /completed +01JXZEPR0BUILD0DEMO000001 +build\.success from xzepr\.event\.receiver\.demo-receiver-001/,
    );
    expect(outcome.output).toMatch(/completed +01JXZEPR0DEPLOY0DEMO00001 +deployment\.success/);
    expect(outcome.output).toContain(
      "| Done. I ran an echo in the terminal and wrote reports/plan-",
    );
    expect(outcome.output).toMatch(
      /filtered an event: .*event=01K0XZEPR0SYSTEM0EVENT0001 reason=type 'xzepr\.event\.receiver\.created'/,
    );
    expect(outcome.output).toContain("terminal: XZatoma received this event");
    // The demo stops the broker it started and removes its data.
    expect(existsSync(path.join(ROOT, `.cache/kafka/demo-${port}`))).toBe(false);
  });
});
