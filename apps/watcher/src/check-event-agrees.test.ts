// `xzatoma-watcher check-event` (the real bin, a child process) and the service's handling of
// a message (`createMessageHandler`, as `xzatoma-watcher run` builds it) judge a corpus of
// event files the same way: valid XZepr and CloudEvents events, XZepr's own notices, invalid
// plans, events the filters turn away, and poison that is no event at all.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createMemoryLedger,
  createMessageHandler,
  createWatcherLogger,
  createWatcherMetrics,
  watcherConfigSchema,
  type WatcherConfig,
} from "@xzatoma/watcher";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/xzatoma-watcher.js", import.meta.url));
const fixture = (dir: string, name: string) =>
  readFileSync(new URL(`${dir}/${name}`, import.meta.url), "utf8");
const XZEPR = "../../../packages/xzepr/src/__fixtures__";
const SHARED = "../../../../shared/fixtures/xzepr-events";
const BUILD = JSON.parse(fixture(XZEPR, "build_success_event.json")) as Record<string, unknown>;

/** A copy of the build event whose entity payload is `payload`. */
function buildWith(payload: unknown, changes: Record<string, unknown> = {}): string {
  const data = BUILD["data"] as { events: Record<string, unknown>[] };
  return JSON.stringify({
    ...BUILD,
    ...changes,
    data: { ...data, events: [{ ...data.events[0], payload }] },
  });
}

const cloudEvent = (fields: Record<string, unknown>) =>
  JSON.stringify({
    specversion: "1.0",
    id: "ce-1",
    source: "/ci/pipeline",
    type: "build.success",
    success: true,
    ...fields,
  });

const PLAN = { name: "verify", steps: [{ name: "look", action: "List the files" }] };

/** The corpus: a file name and its text. */
const CORPUS: Record<string, string> = {
  "build.json": fixture(XZEPR, "build_success_event.json"),
  "deploy.json": fixture(XZEPR, "deploy_success_event.json"),
  "receiver-created.json": fixture(XZEPR, "receiver_created_event.json"),
  "group-created.json": fixture(XZEPR, "group_created_event.json"),
  "shared-build.json": fixture(SHARED, "build_success_event.json"),
  "shared-deploy.json": fixture(SHARED, "deploy_success_event.json"),
  "failed-build.json": buildWith({ plan: PLAN }, { success: false }),
  "prose-plan.json": buildWith({ plan: "Check that the build's artifacts are signed." }),
  "invalid-plan.json": buildWith({ plan: { name: "no steps" } }),
  "empty-payload.json": buildWith({}),
  "cloudevent.json": cloudEvent({ data: { plan: PLAN } }),
  "cloudevent-yaml-plan.json": cloudEvent({
    datacontenttype: "text/yaml",
    data: "name: verify\nsteps:\n  - name: look\n    action: List the files\n",
  }),
  "cloudevent-no-data.json": cloudEvent({}),
  "cloudevent-0.3.json": cloudEvent({ specversion: "0.3", data: { plan: PLAN } }),
  "cloudevent-batch.json": `[${cloudEvent({ data: { plan: PLAN } })}]`,
  "not-json.json": "{ this is not JSON",
  "empty.json": "",
  "array.json": "[1, 2, 3]",
  "plain-text.txt": "Please run the tests.",
};

const VERDICT_OF_DISPOSITION: Record<string, string> = {
  executed: "run",
  filtered: "filter",
  skipped: "skip",
  dead_lettered: "dead-letter",
};

/** What the service does with `bytes`, by the counter its handler moves. */
async function serviceVerdict(config: WatcherConfig, bytes: Uint8Array): Promise<string> {
  const metrics = createWatcherMetrics();
  const handler = createMessageHandler({
    config,
    executor: () => Promise.resolve({ stopReason: "completed", text: "done" }),
    ledger: createMemoryLedger(),
    logger: createWatcherLogger({ level: "error", json: true, write: () => undefined }),
    metrics,
    instance: "xzatoma-watcher://test/1",
  });
  await handler(
    {
      topic: config.kafka.topic,
      partition: 0,
      offset: "0",
      key: undefined,
      value: bytes,
      headers: {},
      timestamp: Date.now(),
    },
    new AbortController().signal,
  );
  const moved = Object.entries(metrics.counts).filter(
    ([name, count]) => name !== "consumed" && count > 0,
  );
  expect(moved).toHaveLength(1);
  return VERDICT_OF_DISPOSITION[moved[0]![0]] ?? moved[0]![0];
}

let home: string;

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-check-event-"));
  for (const [name, text] of Object.entries(CORPUS)) await writeFile(path.join(home, name), text);
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("check-event and the service judge every event alike", () => {
  const configs: Record<string, Record<string, unknown>> = {
    "the service's defaults": {},
    "filters on type and source": {
      filters: { event_types: ["build.success"], source_pattern: "demo", success_only: true },
    },
  };
  for (const [label, section] of Object.entries(configs)) {
    it(`with ${label}`, async () => {
      const config = watcherConfigSchema.parse(section);
      const file = path.join(home, `config-${label.replace(/\W+/g, "-")}.json`);
      await writeFile(file, JSON.stringify({ watcher: section }));
      const verdicts: Record<string, { service: string; checkEvent: string }> = {};
      for (const name of Object.keys(CORPUS)) {
        const eventFile = path.join(home, name);
        const result = spawnSync(
          process.execPath,
          [BIN, "check-event", eventFile, "--config", file, "--json"],
          { encoding: "utf8", env: { ...process.env, XZATOMA_HOME: home } },
        );
        expect(result.stderr).toBe("");
        const said = JSON.parse(result.stdout) as { verdict: string; accepted: boolean };
        expect(result.status).toBe(said.accepted ? 0 : 1);
        verdicts[name] = {
          service: await serviceVerdict(config, readFileSync(eventFile)),
          checkEvent: said.verdict,
        };
      }
      for (const [name, { service, checkEvent }] of Object.entries(verdicts)) {
        expect({ name, verdict: checkEvent }).toEqual({ name, verdict: service });
      }
      if (label === "the service's defaults") {
        // The corpus exercises every verdict, and XZepr's notices are skipped, not dead-lettered.
        const all = new Set(Object.values(verdicts).map((v) => v.service));
        expect([...all].sort()).toEqual(["dead-letter", "filter", "run", "skip"]);
        expect(verdicts["receiver-created.json"]?.service).toBe("skip");
        expect(verdicts["group-created.json"]?.service).toBe("skip");
        expect(verdicts["invalid-plan.json"]?.service).toBe("dead-letter");
        expect(verdicts["cloudevent.json"]?.service).toBe("run");
      } else {
        expect(verdicts["cloudevent.json"]?.service).toBe("filter");
        expect(verdicts["build.json"]?.service).toBe("run");
      }
    });
  }
});
