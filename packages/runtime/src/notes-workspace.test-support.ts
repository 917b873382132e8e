// A home and a workspace for the runtime tests, each a fresh temporary directory; the
// workspace holds notes.txt, which the scripted models read.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** The directories {@link makeNotesWorkspace} made. */
export interface NotesWorkspace {
  readonly home: string;
  readonly workspace: string;
}

/** Makes `PREFIX-home-XXXX` and `PREFIX-ws-XXXX`, the latter with notes.txt ("the answer is 42"). */
export async function makeNotesWorkspace(prefix: string): Promise<NotesWorkspace> {
  const home = await mkdtemp(path.join(os.tmpdir(), `${prefix}-home-`));
  const workspace = await mkdtemp(path.join(os.tmpdir(), `${prefix}-ws-`));
  await writeFile(path.join(workspace, "notes.txt"), "the answer is 42\n");
  return { home, workspace };
}

/** Removes what {@link makeNotesWorkspace} made. */
export async function removeNotesWorkspace(made: NotesWorkspace): Promise<void> {
  await rm(made.home, { recursive: true, force: true });
  await rm(made.workspace, { recursive: true, force: true });
}
