// The directories an end-to-end test runs the command in: a workspace and a home, side by
// side in one temporary directory that the test removes at its end.
import { mkdir, mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** A temporary directory (`base`) holding a workspace (`base/project`) and a home (`base/home`). */
export interface TestDirectories {
  readonly base: string;
  readonly workspace: string;
  readonly home: string;
}

/**
 * Makes a temporary directory named after `prefix` with an empty `project` and `home` in it.
 * The paths are real (no symbolic links), so they match the paths the command prints.
 */
export async function makeTestDirectories(prefix: string): Promise<TestDirectories> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  const workspace = path.join(base, "project");
  const home = path.join(base, "home");
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
  return { base, workspace, home };
}
