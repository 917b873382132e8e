import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  mkdirSync,
  existsSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBlobStore } from "./blob-store.js";
import { readCheckpointLines } from "./checkpoint-index.js";
import { applyRewind } from "./apply-rewind.js";
import { planRewind } from "./rewind-plan.js";
import { pruneCheckpoints } from "./prune-checkpoints.js";
import { createWorkspaceCheckpoints } from "./workspace-checkpoints.js";

const made: string[] = [];
function temporary(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), "xzatoma-checkpoints-"));
  made.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function setUp(options: { maxFileBytes?: number } = {}) {
  const dataDir = temporary();
  const workspace = temporary();
  const checkpoints = createWorkspaceCheckpoints({
    dataDir,
    workspace,
    conversationId: () => "01TESTCONVERSATION",
    ...options,
  });
  const rewind = (toTurn: number) => {
    const lines = readCheckpointLines(path.join(dataDir, "checkpoints"), "01TESTCONVERSATION");
    return planRewind(lines, toTurn, workspace);
  };
  const blobs = createBlobStore(path.join(dataDir, "checkpoints"));
  return { dataDir, workspace, checkpoints, rewind, blobs };
}

describe("workspace checkpoints", () => {
  it("stores the conversation only before a change: a turn's start waits for the id", () => {
    const dataDir = temporary();
    const workspace = temporary();
    const asked: boolean[] = [];
    let stored: string | undefined;
    const checkpoints = createWorkspaceCheckpoints({
      dataDir,
      workspace,
      conversationId: (store) => {
        asked.push(store);
        if (store) stored ??= "01STOREDLATER";
        return stored;
      },
    });
    const index = () => readCheckpointLines(path.join(dataDir, "checkpoints"), "01STOREDLATER");

    checkpoints.startTurn();
    checkpoints.endTurn();
    checkpoints.startTurn();
    // Two turns that changed nothing: the conversation was never made to exist for them.
    expect(asked).toEqual([false, false, false]);
    expect(existsSync(path.join(dataDir, "checkpoints"))).toBe(false);

    writeFileSync(path.join(workspace, "a.txt"), "before\n");
    checkpoints.recordBefore(path.join(workspace, "a.txt"));
    // The change stored it, and everything held back is on disk, in order, before the write.
    expect(asked.at(-1)).toBe(true);
    expect(index().map((line) => `${line.type} ${line.turn}`)).toEqual([
      "turn 1",
      "turn 2",
      "before 2",
    ]);
    writeFileSync(path.join(workspace, "a.txt"), "after\n");
    checkpoints.close();
    const plan = planRewind(index(), 2, workspace);
    expect(plan.changes.map((change) => change.path)).toEqual(["a.txt"]);
  });

  it("records the turns of a conversation that changes no file: they say where it worked", () => {
    const { dataDir, workspace, checkpoints, rewind } = setUp();
    for (let turn = 0; turn < 3; turn += 1) {
      checkpoints.startTurn();
      checkpoints.endTurn();
    }
    checkpoints.close();
    const lines = readCheckpointLines(path.join(dataDir, "checkpoints"), "01TESTCONVERSATION");
    expect(lines.map((line) => `${line.type} ${line.turn}`)).toEqual([
      "turn 1",
      "turn 2",
      "turn 3",
    ]);
    expect(lines.every((line) => line.type !== "turn" || line.workspace === workspace)).toBe(true);
    expect(rewind(1).changes).toEqual([]);
  });

  it("without indexUnchanged, writes no index until a change, then every turn held back", () => {
    const dataDir = temporary();
    const workspace = temporary();
    const make = () =>
      createWorkspaceCheckpoints({
        dataDir,
        workspace,
        conversationId: () => "01TESTCONVERSATION",
        indexUnchanged: false,
      });
    const index = () =>
      readCheckpointLines(path.join(dataDir, "checkpoints"), "01TESTCONVERSATION");
    const quiet = make();
    quiet.startTurn();
    quiet.endTurn();
    quiet.close();
    // A conversation that changed nothing leaves no file behind.
    expect(existsSync(path.join(dataDir, "checkpoints"))).toBe(false);

    const changing = make();
    changing.startTurn();
    changing.endTurn();
    changing.startTurn();
    writeFileSync(path.join(workspace, "a.txt"), "before\n");
    changing.recordBefore(path.join(workspace, "a.txt"));
    writeFileSync(path.join(workspace, "a.txt"), "after\n");
    changing.startTurn();
    changing.close();
    expect(index().map((line) => `${line.type} ${line.turn}`)).toEqual([
      "turn 1",
      "turn 2",
      "before 2",
      "after 2",
      "turn 3",
    ]);
    const plan = planRewind(index(), 2, workspace);
    expect(plan.changes.map((change) => change.path)).toEqual(["a.txt"]);
  });

  it("puts back bytes and modes, removes what turns made, restores what they deleted", () => {
    const { workspace, checkpoints, rewind, blobs } = setUp();
    const at = (name: string) => path.join(workspace, name);
    writeFileSync(at("edited.txt"), "before\n");
    chmodSync(at("edited.txt"), 0o640);
    writeFileSync(at("deleted.sh"), "#!/bin/sh\necho hi\n");
    chmodSync(at("deleted.sh"), 0o755);

    checkpoints.startTurn();
    checkpoints.recordBefore(at("edited.txt"));
    writeFileSync(at("edited.txt"), "after\n");
    chmodSync(at("edited.txt"), 0o600);
    checkpoints.recordBefore(at("new"));
    mkdirSync(at("new"));
    checkpoints.recordBefore(at("new/made.txt"));
    writeFileSync(at("new/made.txt"), "made");
    checkpoints.recordBefore(at("deleted.sh"));
    rmSync(at("deleted.sh"));
    checkpoints.endTurn();

    const plan = rewind(1);
    expect(plan.conflicts).toEqual([]);
    expect(plan.changes.map((change) => change.path).sort()).toEqual([
      "deleted.sh",
      "edited.txt",
      "new",
      "new/made.txt",
    ]);
    const result = applyRewind(workspace, plan.changes, blobs);
    expect(result.failed).toEqual([]);
    expect(readFileSync(at("edited.txt"), "utf8")).toBe("before\n");
    expect(lstatSync(at("edited.txt")).mode & 0o777).toBe(0o640);
    expect(readFileSync(at("deleted.sh"), "utf8")).toBe("#!/bin/sh\necho hi\n");
    expect(lstatSync(at("deleted.sh")).mode & 0o777).toBe(0o755);
    expect(existsSync(at("new"))).toBe(false);
    expect(rewind(1).changes).toEqual([]);
  });

  it("calls a file the person changed after the turn a conflict", () => {
    const { workspace, checkpoints, rewind } = setUp();
    const file = path.join(workspace, "notes.md");
    writeFileSync(file, "one");
    checkpoints.startTurn();
    checkpoints.recordBefore(file);
    writeFileSync(file, "two");
    checkpoints.endTurn();
    writeFileSync(file, "the person's three");
    const plan = rewind(1);
    expect(plan.changes).toEqual([]);
    expect(plan.conflicts.map((conflict) => conflict.path)).toEqual(["notes.md"]);
    expect(plan.conflicts[0]?.reason).toContain("changed after turn 1");
  });

  it("calls a change between two of the agent's turns a conflict", () => {
    const { workspace, checkpoints, rewind } = setUp();
    const file = path.join(workspace, "notes.md");
    writeFileSync(file, "one");
    checkpoints.startTurn();
    checkpoints.recordBefore(file);
    writeFileSync(file, "two");
    checkpoints.startTurn();
    writeFileSync(file, "the person's");
    checkpoints.recordBefore(file);
    writeFileSync(file, "three");
    checkpoints.endTurn();
    expect(rewind(1).conflicts[0]?.reason).toContain("between turn 1 and turn 2");
    // Rewinding only the second turn is the person's text back, no conflict.
    expect(rewind(2).changes.map((change) => change.path)).toEqual(["notes.md"]);
  });

  it("with the conflicts forced, keeps the person's version before putting the old one back", () => {
    const { workspace, checkpoints, rewind, blobs, dataDir } = setUp();
    const file = path.join(workspace, "notes.md");
    writeFileSync(file, "one");
    checkpoints.startTurn();
    checkpoints.recordBefore(file);
    writeFileSync(file, "two");
    checkpoints.endTurn();
    writeFileSync(file, "the person's three");
    const plan = rewind(1);
    const kept = path.join(dataDir, "kept");
    const result = applyRewind(workspace, plan.conflicts, blobs, {
      paths: plan.conflicts.map((conflict) => conflict.path),
      directory: kept,
    });
    expect(result.restored).toEqual(["notes.md"]);
    expect(readFileSync(file, "utf8")).toBe("one");
    expect(readFileSync(path.join(kept, "notes.md"), "utf8")).toBe("the person's three");
  });

  it("records a file over the size limit by hash only and says it cannot restore it", () => {
    const { workspace, checkpoints, rewind } = setUp({ maxFileBytes: 4 });
    const file = path.join(workspace, "big.bin");
    writeFileSync(file, "more than four bytes");
    checkpoints.startTurn();
    checkpoints.recordBefore(file);
    writeFileSync(file, "changed");
    checkpoints.endTurn();
    const plan = rewind(1);
    expect(plan.unrestorable.map((change) => change.path)).toEqual(["big.bin"]);
    expect(plan.changes).toEqual([]);
  });

  it("never records the workspace's .git", () => {
    const { workspace, checkpoints, dataDir } = setUp();
    mkdirSync(path.join(workspace, ".git"));
    writeFileSync(path.join(workspace, ".git", "config"), "[core]\n");
    checkpoints.startTurn();
    checkpoints.recordBefore(path.join(workspace, ".git", "config"));
    checkpoints.recordBefore(path.join(workspace, ".git"), { tree: true });
    checkpoints.endTurn();
    const lines = readCheckpointLines(path.join(dataDir, "checkpoints"), "01TESTCONVERSATION");
    expect(lines.filter((line) => line.type !== "turn")).toEqual([]);
  });

  it("prunes the checkpoints of conversations that are gone, and their blobs", () => {
    const { workspace, checkpoints, dataDir } = setUp();
    const file = path.join(workspace, "a.txt");
    writeFileSync(file, "content");
    checkpoints.startTurn();
    checkpoints.recordBefore(file);
    checkpoints.endTurn();
    const result = pruneCheckpoints({ dataDir, exists: () => false });
    expect(result.conversations).toEqual(["01TESTCONVERSATION"]);
    expect(result.blobs).toBe(1);
  });
});
