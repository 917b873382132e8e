import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/** What is kept of an editor session between agent processes. */
export interface StoredSession {
  readonly cwd: string;
  /** The history conversation the session writes, once its first prompt ran. */
  readonly conversationId?: string;
  /** The session's mode (`planning`, `write`) when it was last set or used. */
  readonly mode?: string;
}

/** The sessions `xzatoma agent` handed out, by ACP session id, for `session/load`. */
export interface SessionStore {
  get(sessionId: string): Promise<StoredSession | undefined>;
  set(sessionId: string, session: StoredSession): Promise<void>;
}

/**
 * A session store in one JSON file (`acp-sessions.json` in the data directory). Writes go
 * through a temporary file and a rename, so a reader never sees half a file.
 */
export function createSessionStore(file: string): SessionStore {
  let writing: Promise<void> = Promise.resolve();
  const readAll = async (): Promise<Record<string, StoredSession>> => {
    try {
      const parsed = JSON.parse(await readFile(file, "utf8")) as unknown;
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, StoredSession>)
        : {};
    } catch {
      return {};
    }
  };
  return {
    async get(sessionId) {
      const all = await readAll();
      return Object.hasOwn(all, sessionId) ? all[sessionId] : undefined;
    },
    set(sessionId, session) {
      writing = writing.then(async () => {
        const all = await readAll();
        all[sessionId] = session;
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        const temporary = `${file}.${process.pid}.tmp`;
        await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
        await rename(temporary, file);
      });
      return writing;
    },
  };
}
