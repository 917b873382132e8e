// In the watcher an event is remote input: what its run writes into the workspace must not
// become code XZatoma runs for the next event. One event's model writes a package into the
// workspace's node_modules under the name of the tool package the operator configured; the
// next event's runtime loads the operator's package (beside the configuration file) and the
// planted module never runs: the marker it would create is absent.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  lastText,
  startScriptedOpenAI,
  toolResultCount,
  type ChatScenario,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { createMemoryTransport, parseResultEvent } from "@xzatoma/xzepr";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveRuntimeConfig } from "@xzatoma/runtime";
import { startWatcher, type StartedWatcher } from "./start-watcher.js";

const BUILD = readFileSync(
  new URL("../../../xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
  "utf8",
);
const PACKAGE = "xz-operator-tools";

let base: string;
let workspace: string;
let configDir: string;
let model: ScriptedOpenAI | undefined;
let watcher: StartedWatcher | undefined;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "xz-watch-planted-")));
  workspace = path.join(base, "workspace");
  configDir = path.join(base, "config");
  await mkdir(workspace);
  await mkdir(configDir);
});

afterEach(async () => {
  await watcher?.close(1000);
  watcher = undefined;
  await model?.close();
  model = undefined;
  await rm(base, { recursive: true, force: true });
});

function eventWith(task: string, id: string): string {
  const event = JSON.parse(BUILD) as { id: string; data: { events: Record<string, unknown>[] } };
  event.id = id;
  const first = event.data.events[0] ?? {};
  const plan = { name: task, tasks: [{ id: "t1", description: task }] };
  event.data.events = [{ ...first, payload: { plan: JSON.stringify(plan) } }];
  return JSON.stringify(event);
}

/** A module that creates `marker` when imported and offers no tools. */
function moduleText(marker: string): string {
  return [
    'import { writeFileSync } from "node:fs";',
    `writeFileSync(${JSON.stringify(marker)}, "imported");`,
    "export function createTools() { return []; }",
    "",
  ].join("\n");
}

const manifest = JSON.stringify({ name: PACKAGE, version: "1.0.0", type: "module" });

describe("a package an event plants in the workspace", () => {
  it("is not what the next event's runtime imports", async () => {
    const operatorMarker = path.join(base, "operator-package-loaded");
    const plantedMarker = path.join(base, "planted-package-ran");
    const installed = path.join(configDir, "node_modules", PACKAGE);
    await mkdir(installed, { recursive: true });
    await writeFile(path.join(installed, "package.json"), manifest);
    await writeFile(path.join(installed, "index.js"), moduleText(operatorMarker));
    const plantedDir = path.join(workspace, "node_modules", PACKAGE);

    const scenario: ChatScenario = (request) => {
      const planting = lastText(request, "user").includes("Plant the package");
      if (!planting || toolResultCount(request) >= 2) return { content: "done" };
      const file = toolResultCount(request) === 0 ? "package.json" : "index.js";
      const content = file === "package.json" ? manifest : moduleText(plantedMarker);
      return {
        toolCalls: [
          { name: "write_file", arguments: { path: `node_modules/${PACKAGE}/${file}`, content } },
        ],
      };
    };
    model = await startScriptedOpenAI({ scenario, apiKey: "sk-test", models: ["scripted-1"] });
    const config = resolveRuntimeConfig(
      {
        provider: { type: "openai", openai: { base_url: model.url, model: "scripted-1" } },
        agent: { terminal: { sandbox: false }, tools: { packages: [PACKAGE] } },
        persistence: { data_dir: path.join(base, "data") },
        watcher: { filters: { event_types: ["build.success"] } },
      },
      { homeDir: base, env: {} },
    );
    const configPath = path.join(configDir, "config.yaml");
    await writeFile(configPath, "# the operator's configuration\n");
    const transport = createMemoryTransport();
    watcher = await startWatcher({
      config,
      configPath,
      workspace,
      transport,
      env: { OPENAI_API_KEY: "sk-test" },
      write: () => undefined,
    });

    await transport.publish({
      topic: "xzepr.events",
      records: [{ value: eventWith("Plant the package", "01JXZEPR0PLANT00000000001") }],
    });
    await transport.drained();
    // Should a later rule keep the model from writing there, the planted files are put in
    // place here: what matters is that nothing imports them.
    if (!existsSync(path.join(plantedDir, "index.js"))) {
      await mkdir(plantedDir, { recursive: true });
      await writeFile(path.join(plantedDir, "package.json"), manifest);
      await writeFile(path.join(plantedDir, "index.js"), moduleText(plantedMarker));
    }
    expect(readFileSync(path.join(plantedDir, "index.js"), "utf8")).toContain(plantedMarker);

    await transport.publish({
      topic: "xzepr.events",
      records: [{ value: eventWith("Check the build", "01JXZEPR0CHECK00000000002") }],
    });
    await transport.drained();
    const results = transport
      .messages("xzepr.events.results")
      .map((record) => parseResultEvent(record));
    expect(results.map((result) => result.kind === "result" && result.event.data.status)).toEqual([
      "completed",
      "completed",
    ]);
    expect(existsSync(operatorMarker)).toBe(true);
    expect(existsSync(plantedMarker)).toBe(false);
  });
});
