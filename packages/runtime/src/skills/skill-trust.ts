import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Something a person can trust: a project file, by its real path and content hash. */
export interface TrustSubject {
  readonly file: string;
  readonly sha256: string;
}

/**
 * The project skills and commands a person trusted, remembered in the data directory
 * (`trusted-project-files.json`) by real path and SHA-256 of the content: a changed file is
 * untrusted again. User-level skills and commands are the person's own and need no entry.
 */
export interface TrustStore {
  /** Whether this exact content of this file was trusted. */
  isTrusted(subject: TrustSubject): boolean;
  /** Remembers the file's current content as trusted. */
  trust(subject: TrustSubject): void;
  /** The file of the store. */
  readonly path: string;
}

/** The store's file name in the data directory. */
export const TRUST_FILE = "trusted-project-files.json";

/**
 * Opens the trust store of a data directory. A missing or unreadable store trusts nothing
 * (fail closed).
 *
 * @example
 * const trust = openTrustStore(config.persistence.data_dir);
 * const offered = skills.filter((skill) => skill.scope === "user" || trust.isTrusted(skill));
 */
export function openTrustStore(dataDir: string): TrustStore {
  const file = path.join(dataDir, TRUST_FILE);
  const read = (): Record<string, string> => {
    try {
      const data: unknown = JSON.parse(readFileSync(file, "utf8"));
      const entries = (data as { trusted?: unknown } | null)?.trusted;
      return typeof entries === "object" && entries !== null && !Array.isArray(entries)
        ? (entries as Record<string, string>)
        : {};
    } catch {
      return {};
    }
  };
  let entries: Record<string, string> | undefined;
  return {
    path: file,
    isTrusted(subject) {
      entries ??= read();
      return Object.hasOwn(entries, subject.file) && entries[subject.file] === subject.sha256;
    },
    trust(subject) {
      entries = { ...read(), [subject.file]: subject.sha256 };
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify({ trusted: entries }, null, 2)}\n`, {
        mode: 0o600,
      });
      renameSync(temporary, file);
    },
  };
}
