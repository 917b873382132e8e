// Time from launching `xzatoma run --prompt` to the first model request arriving at the
// scripted Ollama server. Median of 10. Target: 300 ms.
// Then the fixed part of that request in write mode: the system prompt and the JSON of the
// tools, in bytes, as the provider sends them (an empty workspace, so no AGENTS.md is added).
// Target: 8 KiB (8192 bytes).
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { CLI, format, median, run, ROOT } from "./measure.ts";

const RUNS = 10;
const server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
const samples: number[] = [];
let fixedPart:
  { systemBytes: number; toolsBytes: number; tools: number; workspace: string } | undefined;
try {
  for (let index = 0; index <= RUNS; index += 1) {
    const before = server.requestTimes.length;
    const result = await run(process.execPath, [
      CLI,
      "run",
      "--prompt",
      "hello",
      "--host",
      server.url,
      "-w",
      ROOT,
    ]);
    if (result.code !== 0) throw new Error(`xzatoma run failed: ${result.stderr}`);
    const arrived = server.requestTimes[before];
    if (arrived === undefined) throw new Error("no model request arrived");
    if (index > 0) samples.push(arrived - result.startedAt); // the first run warms the file cache
  }
  const empty = await mkdtemp(path.join(os.tmpdir(), "xz-bench-ws-"));
  try {
    const before = server.requests.length;
    const result = await run(process.execPath, [
      CLI,
      "run",
      "--prompt",
      "hello",
      "--mode",
      "write",
      "--host",
      server.url,
      "-w",
      empty,
    ]);
    if (result.code !== 0) throw new Error(`xzatoma run failed: ${result.stderr}`);
    const request = server.requests[before];
    if (request === undefined) throw new Error("no model request arrived");
    const system = request.messages.find((message) => message.role === "system")?.content ?? "";
    const toolsBytes = Buffer.byteLength(JSON.stringify(request.tools ?? []));
    const systemBytes = Buffer.byteLength(system);
    fixedPart = { systemBytes, toolsBytes, tools: request.tools?.length ?? 0, workspace: empty };
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
} finally {
  await server.close();
}
console.log(
  `launch to first model request, median of ${RUNS}: ${format(median(samples))} (target 300 ms)`,
);
console.log(`  min ${format(Math.min(...samples))}, max ${format(Math.max(...samples))}`);
if (fixedPart) {
  const { systemBytes, toolsBytes, tools, workspace } = fixedPart;
  console.log(
    `fixed part of the first request in write mode: ${systemBytes + toolsBytes} bytes (target 8192)`,
  );
  console.log(
    `  system prompt ${systemBytes} bytes (workspace path ${Buffer.byteLength(workspace)}), ${tools} tools ${toolsBytes} bytes`,
  );
}
