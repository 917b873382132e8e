import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { confineRun, type MachineView } from "./confined-run.js";
import { MOUNT_FAILED_STATUS } from "./overlay-mount.js";
import { runHelper } from "./run-helper.js";

const PROBE_TIMEOUT_MS = 30_000;

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .find(Boolean) ?? ""
  );
}

/**
 * Runs one confined command end to end in a scratch workspace (it writes a file and
 * deletes one) and returns undefined when everything worked, else the warning to show:
 * which step failed and what it said (user namespaces turned off, overlays not allowed,
 * bubblewrap refused an option...).
 */
export async function probeSandbox(machine: MachineView): Promise<string | undefined> {
  const prefix =
    "The bubblewrap sandbox cannot run on this machine, so only provably read-only terminal commands run without a person's yes";
  let workspace: string | undefined;
  try {
    const scratch = await realpath(machine.scratchCandidates[0] ?? "/tmp");
    workspace = await mkdtemp(path.join(scratch, "xzatoma-sandbox-check-"));
    await writeFile(path.join(workspace, "old"), "old\n");
    const run = await confineRun(machine, ["/bin/sh", "-c", "echo ok > made && rm old"], {
      workspace,
      cwd: workspace,
    });
    const result = await runHelper(run.file, run.args, {
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", ...run.env },
      stdio: run.stdio,
      timeoutMs: PROBE_TIMEOUT_MS,
      cwd: workspace,
    });
    const outcome = await run.finish();
    if (result.status !== 0) {
      const step =
        result.status === MOUNT_FAILED_STATUS
          ? "mounting the workspace overlay failed"
          : "a test command failed";
      const said = firstLine(result.stderr);
      const how = result.timedOut
        ? "it did not finish in time"
        : `exit ${String(result.status ?? result.signal)}`;
      return `${prefix}: ${step} (${how})${said ? `: ${said}` : ""}.`;
    }
    const made = await readFile(path.join(workspace, "made"), "utf8").catch(() => undefined);
    const oldKept = await readFile(path.join(workspace, "old"), "utf8").catch(() => undefined);
    if (made !== "ok\n" || oldKept !== undefined) {
      const why = outcome.discarded[0]?.reason ?? "its changes did not reach the workspace";
      return `${prefix}: ${why}.`;
    }
    return undefined;
  } catch (error) {
    return `${prefix}: ${error instanceof Error ? error.message : String(error)}.`;
  } finally {
    if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
  }
}
