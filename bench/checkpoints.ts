// Checkpoint cost, in process against the built @xzatoma/persistence on temp directories:
// - one turn that changes one small file (startTurn, recordBefore, the write, endTurn),
//   median and p90 of 200 turns;
// - one turn whose change set has 1,000 files of 2 KiB (a sandboxed command's apply);
// - disk used by 100 turns of a typical session (each turn edits 3 of 40 source files of
//   2-8 KiB and creates one), blobs and index;
// - a rewind of 1,000 files (plan and apply).
// Run after `nx run persistence:build`: node bench/checkpoints.ts
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  applyRewind,
  createBlobStore,
  createWorkspaceCheckpoints,
  planRewind,
  readCheckpointLines,
} from "../packages/persistence/dist/index.js";
import { median } from "./measure.ts";

const base = mkdtempSync(path.join(tmpdir(), "xz-bench-checkpoints-"));
let counter = 0;
function setUp() {
  counter += 1;
  const dataDir = path.join(base, `data-${counter}`);
  const workspace = path.join(base, `ws-${counter}`);
  mkdirSync(workspace, { recursive: true });
  const id = `01BENCH${String(counter).padStart(19, "0")}`;
  const checkpoints = createWorkspaceCheckpoints({ dataDir, workspace, conversationId: () => id });
  return { dataDir, workspace, id, checkpoints };
}
const time = (action: () => void) => {
  const started = performance.now();
  action();
  return performance.now() - started;
};
const ms = (value: number) => `${value.toFixed(3)} ms`;
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)] ?? 0;
const du = (directory: string) =>
  execFileSync("du", ["-sk", directory], { encoding: "utf8" }).split("\t")[0];
const apparent = (directory: string) =>
  execFileSync("du", ["-sk", "--apparent-size", directory], { encoding: "utf8" }).split("\t")[0];
const text = (size: number, seed: number) =>
  Array.from(
    { length: Math.ceil(size / 32) },
    (_, line) => `line ${seed}-${line} ${"x".repeat(20)}\n`,
  )
    .join("")
    .slice(0, size);

try {
  {
    const { workspace, checkpoints } = setUp();
    const file = path.join(workspace, "notes.md");
    writeFileSync(file, text(1500, 0));
    const costs: number[] = [];
    for (let turn = 1; turn <= 200; turn++) {
      costs.push(
        time(() => {
          checkpoints.startTurn();
          checkpoints.recordBefore(file);
        }) +
          (writeFileSync(file, text(1500, turn)), 0) +
          time(() => checkpoints.endTurn()),
      );
    }
    console.log(
      `one small file per turn: median ${ms(median(costs))}, p90 ${ms(p90(costs))} (checkpointing only, 200 turns)`,
    );
  }
  {
    const { workspace, checkpoints, dataDir, id } = setUp();
    for (let index = 0; index < 1000; index++) {
      mkdirSync(path.join(workspace, `d${index % 20}`), { recursive: true });
      writeFileSync(path.join(workspace, `d${index % 20}`, `f${index}.txt`), text(2048, index));
    }
    checkpoints.startTurn();
    const record = time(() => {
      for (let index = 0; index < 1000; index++) {
        checkpoints.recordBefore(path.join(workspace, `d${index % 20}`, `f${index}.txt`));
      }
    });
    for (let index = 0; index < 1000; index++) {
      writeFileSync(
        path.join(workspace, `d${index % 20}`, `f${index}.txt`),
        text(2048, index + 5000),
      );
    }
    const end = time(() => checkpoints.endTurn());
    console.log(`1,000-file change set (2 KiB each): record ${ms(record)}, end of turn ${ms(end)}`);
    let plan: ReturnType<typeof planRewind> | undefined;
    const planned = time(() => {
      plan = planRewind(readCheckpointLines(path.join(dataDir, "checkpoints"), id), 1, workspace);
    });
    let restored = 0;
    const applied = time(() => {
      restored = applyRewind(
        workspace,
        plan?.changes ?? [],
        createBlobStore(path.join(dataDir, "checkpoints")),
      ).restored.length;
    });
    console.log(
      `rewind of 1,000 files: plan ${ms(planned)}, apply ${ms(applied)} (${restored} restored)`,
    );
  }
  {
    const { workspace, checkpoints, dataDir } = setUp();
    const sizes = Array.from({ length: 40 }, (_, index) => 2048 + ((index * 1543) % 6144));
    sizes.forEach((size, index) =>
      writeFileSync(path.join(workspace, `src-${index}.ts`), text(size, index)),
    );
    const source = du(workspace);
    for (let turn = 1; turn <= 100; turn++) {
      checkpoints.startTurn();
      for (let edit = 0; edit < 3; edit++) {
        const index = (turn * 7 + edit * 13) % 40;
        const file = path.join(workspace, `src-${index}.ts`);
        checkpoints.recordBefore(file);
        writeFileSync(file, text(sizes[index] ?? 4096, turn * 100 + edit));
      }
      const created = path.join(workspace, `new-${turn}.ts`);
      checkpoints.recordBefore(created);
      writeFileSync(created, text(1024, turn));
      checkpoints.endTurn();
    }
    console.log(
      `100 turns (3 edits of 2-8 KiB files and 1 new file each): checkpoints ${du(path.join(dataDir, "checkpoints"))} KiB on disk (blobs ${du(path.join(dataDir, "checkpoints", "blobs"))} KiB, index ${du(path.join(dataDir, "checkpoints", "index"))} KiB; ${apparent(path.join(dataDir, "checkpoints"))} KiB of content); the workspace's sources were ${source} KiB`,
    );
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
