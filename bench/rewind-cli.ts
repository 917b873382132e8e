// `xzatoma rewind ID --to 1 --code-only` of a turn that changed 1,000 files of 2 KiB, the
// whole process as a person runs it (start, configuration, history, plan, apply), median of
// 5; and the same with --dry-run (plan only). Before each run the files are put back to
// what the turn left, so every rewind restores all 1,000. In-process figures of the same
// work are in bench/checkpoints.ts.
// Run after `nx run @xzatoma/cli:build`: node bench/rewind-cli.ts
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createWorkspaceCheckpoints, openHistory } from "../packages/persistence/dist/index.js";
import { CLI, format, median } from "./measure.ts";

const FILES = 1000;
const RUNS = 5;
const base = mkdtempSync(path.join(tmpdir(), "xz-rewind-bench-"));
const home = path.join(base, "home");
const dataDir = path.join(home, ".xzatoma");
const workspace = path.join(base, "project");
const file = (index: number) => path.join(workspace, `d${index % 20}`, `f${index}.txt`);
const text = (seed: number) =>
  Array.from({ length: 64 }, (_, line) => `line ${seed}-${line} ${"x".repeat(20)}\n`)
    .join("")
    .slice(0, 2048);

try {
  mkdirSync(dataDir, { recursive: true });
  for (let index = 0; index < FILES; index++) {
    mkdirSync(path.dirname(file(index)), { recursive: true });
    writeFileSync(file(index), text(index));
  }
  const history = openHistory({ path: path.join(dataDir, "history.db") });
  const conversation = history.createConversation({
    title: "change 1,000 files",
    provider: "ollama",
    model: "llama3.2",
  });
  history.appendMessages(conversation.id, [
    { message: { role: "user", content: "change every file" } },
    { message: { role: "assistant", content: "Changed them.", toolCalls: [] } },
  ]);
  history.close();
  const checkpoints = createWorkspaceCheckpoints({
    dataDir,
    workspace,
    conversationId: () => conversation.id,
  });
  checkpoints.startTurn();
  for (let index = 0; index < FILES; index++) checkpoints.recordBefore(file(index));
  for (let index = 0; index < FILES; index++) writeFileSync(file(index), text(index + 5000));
  checkpoints.close();

  const env = { PATH: process.env["PATH"] ?? "", HOME: home, XZATOMA_HOME: dataDir };
  const rewind = (extra: readonly string[]) => {
    const started = performance.now();
    const result = spawnSync(
      process.execPath,
      [CLI, "rewind", conversation.id, "--to", "1", "--code-only", "--json", ...extra],
      { cwd: workspace, env, encoding: "utf8" },
    );
    const elapsed = performance.now() - started;
    if (result.status !== 0) throw new Error(`rewind exited ${result.status}: ${result.stderr}`);
    const report = JSON.parse(result.stdout) as { restored?: string[]; changes: unknown[] };
    return { elapsed, restored: report.restored?.length ?? 0, planned: report.changes.length };
  };
  const dry: number[] = [];
  const applied: number[] = [];
  let restored = 0;
  let planned = 0;
  for (let run = 0; run < RUNS; run++) {
    const planOnly = rewind(["--dry-run"]);
    dry.push(planOnly.elapsed);
    planned = planOnly.planned;
    const done = rewind([]);
    applied.push(done.elapsed);
    restored = done.restored;
    if (readFileSync(file(7), "utf8") !== text(7)) throw new Error("f7.txt was not put back");
    // What the turn left, so the next run restores all of them again.
    for (let index = 0; index < FILES; index++) writeFileSync(file(index), text(index + 5000));
  }
  console.log(
    `xzatoma rewind --dry-run of ${FILES} files: median ${format(median(dry))} (${planned} planned; whole process, ${RUNS} runs)`,
  );
  console.log(
    `xzatoma rewind of ${FILES} files: median ${format(median(applied))} (${restored} restored; whole process, ${RUNS} runs)`,
  );
} finally {
  rmSync(base, { recursive: true, force: true });
}
