import { mountThenProbe, overlayOptions, type NamespaceTools } from "./overlay-mount.js";
import type { RunDirectory } from "./run-directory.js";
import { runHelper } from "./run-helper.js";

const PROBE_TIMEOUT_MS = 30_000;
/** Bytes of probe paths per helper run, well under the kernel's argument limit. */
const BATCH_BYTES = 256 * 1024;

/**
 * Which directories the command deleted and made again. The overlay marks such a
 * directory "opaque" in an extended attribute, which Node cannot read; instead, the upper
 * directory is stacked on the workspace once more, read-only, and each candidate is asked
 * whether one of its workspace entries that the upper directory does not mention still
 * shows. If it does not, the directory hides the workspace's content: it was replaced.
 */
export async function findReplacedDirectories(
  tools: NamespaceTools,
  directory: RunDirectory,
  workspace: string,
  candidates: readonly { relative: string; probe: string }[],
): Promise<{ replaced: ReadonlySet<string>; failed?: string }> {
  const replaced = new Set<string>();
  const options = overlayOptions({ lower: [directory.upper, workspace] }, tools.unprivileged);
  let start = 0;
  while (start < candidates.length) {
    let end = start;
    let bytes = 0;
    while (end < candidates.length && (end === start || bytes < BATCH_BYTES)) {
      bytes += Buffer.byteLength(candidates[end]?.probe ?? "") + 3;
      end++;
    }
    const batch = candidates.slice(start, end);
    const result = await runHelper(
      tools.unshare,
      mountThenProbe(
        tools,
        options,
        directory.probeMount,
        batch.map((candidate) => candidate.probe),
      ),
      { env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" }, timeoutMs: PROBE_TIMEOUT_MS },
    );
    if (result.status !== 0) {
      const detail = result.stderr.trim().split("\n")[0] || `exit ${String(result.status)}`;
      return { replaced: new Set(), failed: `the overlay probe failed: ${detail}` };
    }
    for (const line of result.stdout.split("\n")) {
      const index = Number.parseInt(line, 10);
      const candidate = Number.isInteger(index) ? batch[index] : undefined;
      if (candidate !== undefined) replaced.add(candidate.relative);
    }
    start = end;
  }
  return { replaced };
}
