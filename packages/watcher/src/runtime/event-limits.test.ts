// An event is remote input: its plan may narrow the operator's limits, never raise them.
// The operator configures agent.max_turns 3; the event's plan asks for 13; a scripted model
// that never stops calling tools gets 3 model requests and the result says max-turns.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startScriptedOpenAI, type ScriptedOpenAI } from "@xzatoma/scripted-servers/openai";
import { createMemoryTransport, parseResultEvent } from "@xzatoma/xzepr";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveRuntimeConfig } from "@xzatoma/runtime";
import { startWatcher, type StartedWatcher } from "./start-watcher.js";

const BUILD = readFileSync(
  new URL("../../../xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
  "utf8",
);

let base: string;
let model: ScriptedOpenAI | undefined;
let watcher: StartedWatcher | undefined;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "xz-watch-limits-"));
});

afterEach(async () => {
  await watcher?.close(1000);
  watcher = undefined;
  await model?.close();
  model = undefined;
  await rm(base, { recursive: true, force: true });
});

function eventAsking(maxIterations: number, id: string): string {
  const event = JSON.parse(BUILD) as { id: string; data: { events: Record<string, unknown>[] } };
  event.id = id;
  const first = event.data.events[0] ?? {};
  const plan = {
    name: "endless",
    tasks: [{ id: "t1", description: "List the workspace until told to stop" }],
    max_iterations: maxIterations,
  };
  event.data.events = [{ ...first, payload: { plan: JSON.stringify(plan) } }];
  return JSON.stringify(event);
}

async function runEvent(configured: number, asked: number) {
  // Never a final answer: each request lists with another pattern (no loop is detected).
  model = await startScriptedOpenAI({
    scenario: (_request, index) => ({
      toolCalls: [{ name: "list_directory", arguments: { path: ".", pattern: `*.${index}` } }],
    }),
    apiKey: "sk-test",
    models: ["scripted-1"],
  });
  const workspace = await mkdtemp(path.join(base, "ws-"));
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: model.url, model: "scripted-1" } },
      agent: { max_turns: configured, terminal: { sandbox: false } },
      persistence: { data_dir: path.join(base, "data") },
      watcher: { filters: { event_types: ["build.success"] } },
    },
    { homeDir: base, env: {} },
  );
  const transport = createMemoryTransport();
  watcher = await startWatcher({
    config,
    workspace,
    transport,
    env: { OPENAI_API_KEY: "sk-test" },
    write: () => undefined,
  });
  await transport.publish({
    topic: "xzepr.events",
    records: [{ value: eventAsking(asked, `01JXZEPR0LIMIT0000000000${configured}${asked}`) }],
  });
  await transport.drained();
  const [record] = transport.messages("xzepr.events.results");
  const parsed = parseResultEvent(record!);
  if (parsed.kind !== "result") throw new Error("no result event");
  return { data: parsed.event.data, requests: model.chatRequests.length };
}

describe("an event's plan and the operator's limits", () => {
  it("cannot raise max_turns: 3 configured, 13 asked, 3 model requests run", async () => {
    const { data, requests } = await runEvent(3, 13);
    expect(requests).toBe(3);
    expect(data).toMatchObject({ stopReason: "max-turns" });
  });

  it("can narrow it: 5 configured, 2 asked, 2 model requests run", async () => {
    const { data, requests } = await runEvent(5, 2);
    expect(requests).toBe(2);
    expect(data).toMatchObject({ stopReason: "max-turns" });
  });
});
