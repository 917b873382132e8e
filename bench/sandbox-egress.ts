// What the egress proxy costs a sandboxed command: `true` in the sandbox without and with
// egress (the forwarder's start: a Node process and the host's pipes), median and p90 of
// 15 after a warm-up; then a 64 MiB download from a server on 127.0.0.1 with curl, through
// the proxy (plain HTTP and a CONNECT tunnel) and, for comparison, with the host's network
// (`network: true`), best of 3.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createAllowance,
  createSandbox,
  type SandboxRunOptions,
} from "../packages/safety/dist/index.js";
import { format, median } from "./measure.ts";

const RUNS = 15;
const DOWNLOAD_BYTES = 64 * 1024 * 1024;
const workspace = mkdtempSync(path.join(tmpdir(), "xz-bench-egress-"));
const sandbox = createSandbox({ env: process.env });
await sandbox.probe();
if (sandbox.kind !== "bubblewrap") {
  console.error(`no sandbox here: ${sandbox.warning ?? "unknown reason"}`);
  process.exit(2);
}

const body = Buffer.alloc(DOWNLOAD_BYTES, 7);
const server = createServer((_request, response) => response.end(body));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = (server.address() as { port: number }).port;
const egress = {
  allowHost: (host: string, candidate: number) => host === "127.0.0.1" && candidate === port,
  addresses: createAllowance({ allowHosts: [`127.0.0.1:${port}`] }),
};

async function once(script: string, options: Partial<SandboxRunOptions>): Promise<number> {
  const started = performance.now();
  const run = await sandbox.prepare(["/bin/bash", "--noprofile", "--norc", "-c", script], {
    workspace,
    cwd: workspace,
    ...options,
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(run.file, run.args, {
      stdio: run.stdio as ["ignore", "pipe", "pipe"],
      env: { PATH: "/usr/bin:/bin", ...run.env },
      detached: true,
    });
    child.stdout?.resume();
    child.stderr?.resume();
    child.on("error", reject);
    child.on("close", resolve);
  });
  await run.finish();
  if (code !== 0) throw new Error(`${script} exited ${String(code)}`);
  return performance.now() - started;
}

async function figures(script: string, options: Partial<SandboxRunOptions>, runs: number) {
  await once(script, options);
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) times.push(await once(script, options));
  const sorted = [...times].sort((a, b) => a - b);
  return {
    median: median(times),
    p90: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)]!,
    best: sorted[0]!,
  };
}

try {
  const plain = await figures("true", {}, RUNS);
  const withEgress = await figures("true", { egress }, RUNS);
  console.log(
    `egress start-up (${process.getuid?.() === 0 ? "root" : "ordinary user"}), median and p90 of ${RUNS}`,
  );
  console.log(
    `  true in the sandbox              ${format(plain.median)} (p90 ${format(plain.p90)})`,
  );
  console.log(
    `  true in the sandbox with egress  ${format(withEgress.median)} (p90 ${format(withEgress.p90)})  added: +${format(withEgress.median - plain.median)}`,
  );
  const url = `http://127.0.0.1:${port}/`;
  const download = (flags: string) => `curl -sS --fail ${flags} -o /dev/null ${url}`;
  const rate = (ms: number) => `${(DOWNLOAD_BYTES / 1024 / 1024 / (ms / 1000)).toFixed(0)} MiB/s`;
  const direct = await figures(download(""), { network: true }, 3);
  const proxied = await figures(download(""), { egress }, 3);
  const tunnelled = await figures(download("--proxytunnel"), { egress }, 3);
  console.log(`64 MiB download with curl, best of 3 (the whole command, start-up included)`);
  console.log(`  host network (network: true)     ${format(direct.best)}  ${rate(direct.best)}`);
  console.log(`  egress, plain HTTP               ${format(proxied.best)}  ${rate(proxied.best)}`);
  console.log(
    `  egress, CONNECT tunnel           ${format(tunnelled.best)}  ${rate(tunnelled.best)}`,
  );
} finally {
  server.close();
  rmSync(workspace, { recursive: true, force: true });
}
