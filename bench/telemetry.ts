// Agent overhead of OpenTelemetry per turn: the same tool-call run against the scripted
// Ollama server with telemetry on (the real SDK: createRunTelemetry -> batch span processor
// with an in-memory exporter, and a meter provider whose instruments record every turn) and
// off (no listener). Two numbers, both per turn (one model request and one tool call):
//   - end to end: (median wall of a 100-turn run on - median off) / turns, runs interleaved;
//   - processing: the events of that run replayed through the telemetry, median over many
//     replays, divided by turns (what telemetry itself costs, without the network's noise).
// Target: within 1 ms per turn.
//
//   node bench/telemetry.ts
//
// Uses the built packages (core, providers, tools) and the SDK from the workspace root.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, InMemorySpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { Agent, type AgentEvent } from "../packages/core/dist/index.js";
import { createRunTelemetry } from "../packages/otel/dist/index.js";
import { createOllamaModel } from "../packages/providers/dist/index.js";
import { createListDirectoryTool, createWorkspaceContext } from "../packages/tools/dist/index.js";
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { format, median } from "./measure.ts";

const TURNS = 100;
const RUNS = 15;
const REPLAYS = 200;
const TARGET_MS = 1;

const workspace = mkdtempSync(path.join(tmpdir(), "xz-bench-telemetry-"));
writeFileSync(path.join(workspace, "README.md"), "bench\n");
const server = await startScriptedOllama({ scenario: SCENARIOS["tool-loop"]! });
const tools = [createListDirectoryTool(createWorkspaceContext({ root: workspace }))];

const spanExporter = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({
  spanProcessors: [new BatchSpanProcessor({ exporter: spanExporter })],
});
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const meterProvider = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000 }),
  ],
});
const tracer = tracerProvider.getTracer("bench");
const meter = meterProvider.getMeter("bench");

function telemetry() {
  return createRunTelemetry({ tracer, meter, provider: "ollama", model: "llama3.2:latest" });
}

/** One run of TURNS tool calls; resolves with its wall time, turns and events. */
async function run(on: boolean): Promise<{ wallMs: number; turns: number; events: AgentEvent[] }> {
  const agent = new Agent({
    model: createOllamaModel({ host: server.url }),
    tools,
    limits: { maxTurns: TURNS + 10, maxToolCalls: TURNS + 10, maxRepeatedToolCalls: TURNS },
  });
  const events: AgentEvent[] = [];
  const recorder = on ? telemetry() : undefined;
  const started = performance.now();
  const result = await agent.run(`turns:${TURNS}`, {
    onEvent: (event) => {
      events.push(event);
      recorder?.onEvent(event);
    },
  });
  const wallMs = performance.now() - started;
  if (result.stopReason !== "completed") throw new Error(`the run stopped: ${result.stopReason}`);
  return { wallMs, turns: result.turns, events };
}

try {
  await run(false); // warm up both paths
  await run(true);
  const off: number[] = [];
  const on: number[] = [];
  let turns = 0;
  let events: AgentEvent[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    // Alternate which goes first, so neither always runs on a warmer process.
    const order = index % 2 === 0 ? [false, true] : [true, false];
    for (const telemetryOn of order) {
      const measured = await run(telemetryOn);
      (telemetryOn ? on : off).push(measured.wallMs);
      if (!telemetryOn) {
        turns = measured.turns;
        events = measured.events;
      }
    }
    await tracerProvider.forceFlush();
    spanExporter.reset();
  }

  // The recorded events through the telemetry alone.
  const replays: number[] = [];
  for (let index = 0; index < REPLAYS; index += 1) {
    const recorder = telemetry();
    const started = performance.now();
    for (const event of events) recorder.onEvent(event);
    replays.push(performance.now() - started);
    if (index % 20 === 19) {
      await tracerProvider.forceFlush();
      spanExporter.reset();
    }
  }
  await tracerProvider.forceFlush();
  const spansPerRun = events.filter(
    (event) =>
      event.type === "turn-started" ||
      event.type === "tool-call-requested" ||
      event.type === "run-started",
  ).length;

  const wallOff = median(off);
  const wallOn = median(on);
  const endToEnd = (wallOn - wallOff) / turns;
  const processing = median(replays) / turns;
  console.log(
    `telemetry overhead, ${turns} turns (model request + tool call each), ${spansPerRun} spans a run`,
  );
  console.log(
    `  run without telemetry, median of ${RUNS}  ${format(wallOff)} (${format(wallOff / turns)} per turn)`,
  );
  console.log(
    `  run with telemetry, median of ${RUNS}     ${format(wallOn)} (${format(wallOn / turns)} per turn)`,
  );
  console.log(
    `  end to end per turn                   ${endToEnd.toFixed(3)} ms (target <= ${TARGET_MS} ms)`,
  );
  console.log(
    `  processing per turn, median of ${REPLAYS} replays  ${processing.toFixed(3)} ms (${median(replays).toFixed(2)} ms a run)`,
  );
} finally {
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
}
