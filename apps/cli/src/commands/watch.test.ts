import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { StartWatcherOptions } from "@xzatoma/watcher/runtime";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { version } from "../version.js";
import { watchCommand } from "./watch.js";

const started: StartWatcherOptions[] = [];

vi.mock("@xzatoma/watcher/runtime", () => ({
  startWatcher: vi.fn(async (options: StartWatcherOptions) => {
    started.push(options);
    // End the command at once, as a consumer that failed for good would.
    options.onFatal?.(new Error("stopped by the test"));
    return { close: async () => undefined };
  }),
}));

let home: string;
let savedHome: string | undefined;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xzatoma-watch-command-"));
  savedHome = process.env["HOME"];
  process.env["HOME"] = home;
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
});

afterEach(async () => {
  if (savedHome === undefined) delete process.env["HOME"];
  else process.env["HOME"] = savedHome;
  vi.restoreAllMocks();
  started.length = 0;
  await rm(home, { recursive: true, force: true });
});

const command = { opts: () => ({}), getOptionValueSource: () => undefined };

describe("xzatoma watch", () => {
  it("runs plans in the absolute path of --workspace, and reports its own version as the release", async () => {
    expect(await watchCommand({ workspace: "some/relative/dir" }, command)).toBe(1);
    expect(started[0]?.workspace).toBe(path.resolve("some/relative/dir"));
    expect(path.isAbsolute(started[0]?.workspace ?? "")).toBe(true);
    expect(started[0]?.release).toBe(version);
  });

  it("defaults the workspace to the current directory, absolute", async () => {
    await watchCommand({}, command);
    expect(started[0]?.workspace).toBe(process.cwd());
  });
});
