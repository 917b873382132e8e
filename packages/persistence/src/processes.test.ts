import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openTempHistory, tempDbPath } from "./__fixtures__/temp-history.js";

const run = promisify(execFile);
const loader = fileURLToPath(new URL("./__fixtures__/ts-resolve.mjs", import.meta.url));

/** Runs a fixture script of this package in its own `node` process. */
function runFixture(name: string, ...args: string[]) {
  const script = fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));
  return run(process.execPath, ["--no-warnings", "--import", loader, script, ...args]);
}

describe("history across processes", () => {
  it("keeps every committed turn when the writing process is killed", async () => {
    const file = tempDbPath();
    const outcome = await runFixture("crash-after-two-turns.ts", file).then(
      () => ({ killed: false, stdout: "" }),
      (error: { signal?: string; stdout: string }) => ({
        killed: error.signal === "SIGKILL",
        stdout: error.stdout,
      }),
    );
    expect(outcome.killed).toBe(true);
    const conversation = openTempHistory({ path: file }).getConversation(outcome.stdout.trim());
    expect(conversation?.messages.map((stored) => stored.message.content)).toEqual([
      "turn 1",
      "turn 2",
    ]);
    expect(conversation?.status).toBe("running");
  }, 60_000);

  it("lets several processes open (and migrate) a new file at once", async () => {
    const file = tempDbPath();
    const startAt = String(Date.now() + 2000);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => runFixture("open-and-close.ts", file, startAt)),
    );
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    expect(openTempHistory({ path: file }).listConversations().total).toBe(0);
    // Six Node processes start, wait for a shared instant and migrate: on a loaded 2-core
    // machine that alone can take longer than the default 5 s.
  }, 60_000);
});
