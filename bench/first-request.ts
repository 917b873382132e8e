// Time from launching `xzatoma run --prompt` to the first model request arriving at the
// scripted Ollama server. Median of 10. Target: 1.5x the baseline, a bare `node -e` that
// sends one chat request to the same server with fetch (measured in turn with the CLI, so
// both see the same load).
// Then the fixed part of that request in write mode: the system prompt and the JSON of the
// tools, in bytes, as the provider sends them (an empty workspace, so no AGENTS.md is added).
// Target: 8 KiB (8192 bytes).
//
//   node bench/first-request.ts [BIN]
//
// BIN defaults to apps/cli/bin/xzatoma.js; another build's bin (its bin, dist and
// package.json copied, with a node_modules link to apps/cli/node_modules) measures that build.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { launchToFirstRequest } from "./launch-to-request.ts";
import { CLI, format, median, run } from "./measure.ts";

const RUNS = 10;
const bin = process.argv[2] ? path.resolve(process.argv[2]) : CLI;
const server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
const samples: number[] = [];
const bare: number[] = [];
/** The floor: Node starting, loading fetch and sending one chat request, nothing else. */
const bareLoop = (url: string) =>
  `fetch(${JSON.stringify(`${url}/api/chat`)}, { method: "POST", headers: { "content-type": "application/json" }, ` +
  `body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hello" }], stream: false }) })` +
  `.then((response) => response.text())`;
let fixedPart:
  { systemBytes: number; toolsBytes: number; tools: number; workspace: string } | undefined;
try {
  for (let index = 0; index <= RUNS; index += 1) {
    const bareBefore = server.requestTimes.length;
    const bareResult = await run(process.execPath, ["-e", bareLoop(server.url)]);
    if (bareResult.code !== 0) throw new Error(`bare loop failed: ${bareResult.stderr}`);
    const bareArrived = server.requestTimes[bareBefore];
    if (bareArrived === undefined) throw new Error("the bare loop's request did not arrive");
    if (index > 0) bare.push(bareArrived - bareResult.startedAt);
    const launched = await launchToFirstRequest(server, bin);
    if (index > 0) samples.push(launched); // the first run warms the file cache
  }
  const empty = await mkdtemp(path.join(os.tmpdir(), "xz-bench-ws-"));
  try {
    const before = server.requests.length;
    const result = await run(process.execPath, [
      bin,
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
const baseline = median(bare);
console.log(
  `launch to first model request, median of ${RUNS}: ${format(median(samples))} ` +
    `(${(median(samples) / baseline).toFixed(2)}x the bare loop; target <= 1.5x)`,
);
console.log(`  min ${format(Math.min(...samples))}, max ${format(Math.max(...samples))}`);
console.log(
  `  bare node -e loop, median of ${RUNS}: ${format(baseline)} ` +
    `(min ${format(Math.min(...bare))}, max ${format(Math.max(...bare))})`,
);
if (fixedPart) {
  const { systemBytes, toolsBytes, tools, workspace } = fixedPart;
  console.log(
    `fixed part of the first request in write mode: ${systemBytes + toolsBytes} bytes (target 8192)`,
  );
  console.log(
    `  system prompt ${systemBytes} bytes (workspace path ${Buffer.byteLength(workspace)}), ${tools} tools ${toolsBytes} bytes`,
  );
}
