// Launch to the first model request of two or more builds of the CLI, in turn run by run so
// that each sees the same load: each argument is the path of a bin (`apps/cli/bin/xzatoma.js`
// of a checkout), optionally preceded by node options and `@`
// ("--max-semi-space-size=8@apps/cli/bin/xzatoma.js"). Median and fastest of ROUNDS (default
// 16) runs each after one warm-up round, against the scripted Ollama server, timestamped on the
// server's side as bench/first-request.ts does.
//
//   node bench/compare-first-request.ts ../before/apps/cli/bin/xzatoma.js apps/cli/bin/xzatoma.js
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { launchToFirstRequest } from "./launch-to-request.ts";
import { median } from "./measure.ts";

const bins = process.argv.slice(2);
if (bins.length === 0) {
  process.stderr.write("usage: node bench/compare-first-request.ts [OPTIONS@]BIN ...\n");
  process.exit(2);
}
const ROUNDS = Number(process.env["ROUNDS"] ?? 16);
const server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
const times: number[][] = bins.map(() => []);
try {
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [index, bin] of bins.entries()) {
      const [options, file] = bin.includes("@") ? bin.split("@") : ["", bin];
      const launched = await launchToFirstRequest(server, file!, options ? options.split(" ") : []);
      if (round > 0) times[index]!.push(launched); // round 0 warms caches
    }
  }
} finally {
  await server.close();
}
for (const [index, bin] of bins.entries()) {
  const samples = times[index]!;
  console.log(
    `${bin}: median ${median(samples).toFixed(1)} ms, fastest ${Math.min(...samples).toFixed(1)} ms (${samples.length} runs)`,
  );
}
