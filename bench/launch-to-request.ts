// Launch of `xzatoma run --prompt hello` to the first `/api/chat` request arriving at a
// scripted Ollama server, timestamped on the server's side: the one way bench/first-request.ts
// and bench/compare-first-request.ts measure start-up.
import type { ScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { CLI, ROOT, run } from "./measure.ts";

/** Milliseconds from spawning the bin (`node [nodeOptions] bin run ...`) to its first request. */
export async function launchToFirstRequest(
  server: ScriptedOllama,
  bin: string = CLI,
  nodeOptions: readonly string[] = [],
): Promise<number> {
  const before = server.requestTimes.length;
  const result = await run(process.execPath, [
    ...nodeOptions,
    bin,
    "run",
    "--prompt",
    "hello",
    "--host",
    server.url,
    "-w",
    ROOT,
  ]);
  if (result.code !== 0) throw new Error(`${bin} run failed: ${result.stderr}`);
  const arrived = server.requestTimes[before];
  if (arrived === undefined) throw new Error(`${bin}: no model request arrived`);
  return arrived - result.startedAt;
}
