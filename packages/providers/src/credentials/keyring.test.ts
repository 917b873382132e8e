// The credential store against real OS keyrings, in child processes: a throwaway
// gnome-keyring in a private D-Bus session (tools/keyring/with-test-keyring.sh), and a
// D-Bus address where nothing listens. This process never talks to a keyring itself.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const WITH_TEST_KEYRING = path.join(ROOT, "tools/keyring/with-test-keyring.sh");
const FIXTURE = path.join(import.meta.dirname, "__fixtures__/keyring-round-trip.ts");
const PACKAGES = { "dbus-run-session": "dbus-daemon", "gnome-keyring-daemon": "gnome-keyring" };

function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** Runs the round-trip fixture and returns its report. */
function roundTrip(command: string[], env: NodeJS.ProcessEnv) {
  const [program, ...args] = [...command, process.execPath, FIXTURE];
  const child = spawnSync(program!, args, {
    cwd: path.dirname(FIXTURE),
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (child.status !== 0) {
    throw new Error(
      `${command.join(" ")} node ${FIXTURE} exited ${String(child.status ?? child.signal)}:\n${child.stderr}`,
    );
  }
  const lines = child.stdout.trim().split("\n");
  return JSON.parse(lines.at(-1) ?? "{}") as Record<string, unknown>;
}

function withoutSessionBus(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env["DBUS_SESSION_BUS_ADDRESS"];
  delete env["GNOME_KEYRING_CONTROL"];
  return env;
}

describe.runIf(process.platform === "linux")("credential store with real keyrings", () => {
  it("round-trips through a real Secret Service (gnome-keyring)", { timeout: 60_000 }, () => {
    const missing = Object.entries(PACKAGES)
      .filter(([command]) => !onPath(command))
      .map(([, apt]) => apt);
    if (missing.length > 0) {
      throw new Error(
        `The keyring test needs a Secret Service: install it with 'sudo apt-get install -y ${missing.join(" ")}' (the project's setup does this).`,
      );
    }
    expect(roundTrip(["bash", WITH_TEST_KEYRING], withoutSessionBus())).toEqual({
      before: "none",
      storedIn: "keyring",
      describe: "keyring",
      readBack: true,
      freshStoreReads: true,
      inKeyring: "yes",
      deleted: true,
      afterDelete: "none",
      gone: true,
      warnings: [],
      leaked: false,
    });
  });

  it("refuses to store, and warns once on reading, when no Secret Service answers", () => {
    const env = {
      ...withoutSessionBus(),
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(ROOT, ".cache", "no-such-bus")}`,
    };
    const report = roundTrip([], env);
    expect(report).toMatchObject({
      before: "none",
      storedIn: "refused: CREDENTIAL_STORE_UNAVAILABLE",
      describe: "none",
      readBack: false,
      freshStoreReads: false,
      inKeyring: "unreachable",
      deleted: false,
      afterDelete: "none",
      leaked: false,
    });
    // One warning from each of the fixture's two stores, both on reading.
    expect(report["warnings"]).toEqual([expect.any(String), expect.any(String)]);
    expect((report["warnings"] as string[])[0]).toMatch(
      /^The system keyring is not available \(.*\); credentials stored in it cannot be read, only those in the environment\.$/,
    );
  });
});
