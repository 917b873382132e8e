// Time from launching `xzatoma run --prompt` to the first model request arriving at the
// scripted Ollama server. Median of 10. Target: 300 ms.
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { CLI, format, median, run, ROOT } from "./measure.ts";

const RUNS = 10;
const server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
const samples: number[] = [];
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
} finally {
  await server.close();
}
console.log(
  `launch to first model request, median of ${RUNS}: ${format(median(samples))} (target 300 ms)`,
);
console.log(`  min ${format(Math.min(...samples))}, max ${format(Math.max(...samples))}`);
