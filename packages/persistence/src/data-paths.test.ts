import { describe, expect, it } from "vitest";
import { resolveDataHome, resolveHistoryDbPath } from "./data-paths.js";

describe("data paths", () => {
  it("puts the history database in ~/.xzatoma unless XZATOMA_HOME moves the data home", () => {
    expect(resolveHistoryDbPath({ env: {}, homeDir: "/home/ada" })).toBe(
      "/home/ada/.xzatoma/history.db",
    );
    expect(resolveHistoryDbPath({ env: { XZATOMA_HOME: "/data/xz" }, homeDir: "/home/ada" })).toBe(
      "/data/xz/history.db",
    );
    expect(resolveDataHome({ env: { XZATOMA_HOME: " " }, homeDir: "/home/ada" })).toBe(
      "/home/ada/.xzatoma",
    );
  });

  it("lets --storage-path win over XZATOMA_HISTORY_DB, which wins over the data home", () => {
    const env = { XZATOMA_HOME: "/data/xz", XZATOMA_HISTORY_DB: "/tmp/env.db" };
    expect(resolveHistoryDbPath({ env, homeDir: "/home/ada" })).toBe("/tmp/env.db");
    expect(resolveHistoryDbPath({ env, homeDir: "/home/ada", storagePath: "/tmp/flag.db" })).toBe(
      "/tmp/flag.db",
    );
  });
});
