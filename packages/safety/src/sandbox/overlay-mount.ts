// The outer layer of a sandboxed command: a private mount namespace (and, for a user other
// than root, a user namespace where that user is root) in which the workspace is covered by
// an overlay, so the command's writes land in a private upper directory; then bubblewrap.
// Paths travel as positional arguments of a fixed script, never inside its text.

/** The host programs the overlay layer runs. */
export interface NamespaceTools {
  readonly unshare: string;
  readonly mount: string;
  readonly shell: string;
  /**
   * True when XZatoma does not run as root: the overlay is then mounted inside a user
   * namespace with `userxattr` (its bookkeeping in `user.overlay.*` attributes).
   */
  readonly unprivileged: boolean;
}

/** Overlay option values escape `\`, `,` and `:` with a backslash (the kernel's own rule). */
export function escapeOverlayPath(value: string): string {
  return value.replace(/[\\,:]/g, (character) => `\\${character}`);
}

/**
 * The overlay's mount options. `redirect_dir=nofollow` makes renaming a directory that
 * came from the workspace fail with EXDEV (tools then copy and delete, which the upper
 * directory records plainly) and ignores redirects; `metacopy=off` copies whole files up,
 * so every changed file is complete in the upper directory. Without an upper directory the
 * overlay is read-only and stacks the layers given, top first.
 */
export function overlayOptions(
  layers: { readonly lower: readonly string[]; readonly upper?: string; readonly work?: string },
  unprivileged: boolean,
): string {
  const options = [`lowerdir=${layers.lower.map(escapeOverlayPath).join(":")}`];
  if (layers.upper !== undefined && layers.work !== undefined) {
    options.push(
      `upperdir=${escapeOverlayPath(layers.upper)}`,
      `workdir=${escapeOverlayPath(layers.work)}`,
    );
  }
  options.push("redirect_dir=nofollow", "metacopy=off");
  if (unprivileged) options.push("userxattr");
  return options.join(",");
}

/** Exit status of the overlay layer when the mount itself failed. */
export const MOUNT_FAILED_STATUS = 125;

// Joins the command's cgroups when there are any ($4, $5: pids and memory, the same one
// on cgroup v2; `0` names the writing thread, and the shell has no other), so everything
// it starts is counted there; sets the limits ($6-$9) before
// bwrap makes its user namespace, so they bind the whole sandbox (dash names the process
// limit -p, other shells -u); mounts the overlay; becomes bwrap.
const MOUNT_THEN_EXEC = [
  "m=$1 o=$2 t=$3",
  `for c in "$4" "$5"; do if [ -n "$c" ]; then echo 0 > "$c" || exit ${MOUNT_FAILED_STATUS}; fi; done`,
  'ulimit -u "$6" 2>/dev/null || ulimit -p "$6" 2>/dev/null',
  'ulimit -d "$7" 2>/dev/null; ulimit -f "$8" 2>/dev/null; ulimit -t "$9" 2>/dev/null',
  "shift 9",
  `"$m" -n -i -t overlay overlay -o "$o" "$t" || exit ${MOUNT_FAILED_STATUS}`,
  'exec "$@"',
].join("\n");

// Prints the index of every path (relative to the mount) that does not exist in it.
const MOUNT_THEN_PROBE = `m=$1 o=$2 t=$3; shift 3; "$m" -n -i -t overlay overlay -o "$o" "$t" || exit ${MOUNT_FAILED_STATUS}; cd "$t" || exit ${MOUNT_FAILED_STATUS}; i=0; for p; do [ -e "$p" ] || [ -h "$p" ] || echo "$i"; i=$((i+1)); done`;

function namespaceArguments(tools: NamespaceTools): string[] {
  return [
    ...(tools.unprivileged ? ["--user", "--map-root-user"] : []),
    "--mount",
    "--propagation",
    "private",
    "--",
    tools.shell,
    "-c",
  ];
}

/** What {@link mountThenExec} sets up before it becomes the command. */
export interface OverlayLaunch {
  /** The overlay's mount options and where it covers. */
  readonly options: string;
  readonly target: string;
  /** The join files of the command's cgroups (at most two: pids and memory), `RunCgroup.joinFiles`. */
  readonly cgroupJoinFiles?: readonly string[];
  /** From `shellLimitArguments`. */
  readonly limits: readonly string[];
}

/**
 * Arguments of `unshare` that, in a fresh mount namespace, join the cgroup, set the
 * limits, mount the overlay and then run `argv`. The mount vanishes with the namespace,
 * that is when the last process of the command ends.
 */
export function mountThenExec(
  tools: NamespaceTools,
  launch: OverlayLaunch,
  argv: readonly string[],
): string[] {
  return [
    ...namespaceArguments(tools),
    MOUNT_THEN_EXEC,
    "xzatoma-overlay",
    tools.mount,
    launch.options,
    launch.target,
    launch.cgroupJoinFiles?.[0] ?? "",
    launch.cgroupJoinFiles?.[1] ?? "",
    ...launch.limits,
    ...argv,
  ];
}

/**
 * Arguments of `unshare` that mount a read-only overlay on `target` and print, one per
 * line, the index of each of `paths` (relative to `target`) that it does not show.
 */
export function mountThenProbe(
  tools: NamespaceTools,
  options: string,
  target: string,
  paths: readonly string[],
): string[] {
  return [
    ...namespaceArguments(tools),
    MOUNT_THEN_PROBE,
    "xzatoma-overlay-probe",
    tools.mount,
    options,
    target,
    ...paths.map((relative) => `./${relative}`),
  ];
}
