// What the grep workers and the main thread exchange.

/** Indices of the shared counters (an Int32Array over a SharedArrayBuffer). */
export const GREP_COUNTERS = {
  /** The next file index to take. */
  next: 0,
  /** Matches found so far; workers take no new file once it reaches the limit. */
  total: 1,
  binary: 2,
  large: 3,
  unreadable: 4,
  /** Files with more than one hard link, skipped: their content may come from outside. */
  linked: 5,
  /** Worker k publishes the file it is searching (-1 when idle) at `slots + k`. */
  slots: 6,
} as const;

/** One search, as each worker receives it. */
export interface GrepJob {
  /** The real workspace root: a descriptor that resolves elsewhere is skipped. */
  readonly root: string;
  readonly source: string;
  readonly flags: string;
  readonly prefilter: boolean;
  readonly literal: string | null;
  readonly required: string | null;
  readonly contextLines: number;
  /** Matches kept per file at most; one more marks the file as truncated. */
  readonly maxMatches: number;
  readonly maxFileBytes: number;
  readonly maxLineChars: number;
  /** Search files with more than one hard link too (a person approved reading this one). */
  readonly readHardLinks: boolean;
  readonly shared: SharedArrayBuffer;
  readonly counters: typeof GREP_COUNTERS;
  /** Which slot of the shared counters this worker publishes its current file in. */
  readonly slot: number;
}

/** The message that starts a search in a worker. */
export interface GrepJobMessage {
  readonly job: GrepJob;
  /** Root-relative paths, the first files found, joined with NUL (one string clones fast). */
  readonly files: string;
  /** True when no more files will come. */
  readonly final: boolean;
}

/**
 * More files of the search, sent while the walk finds them: a worker that has taken an
 * index past the files it has waits for them.
 */
export interface GrepMoreMessage {
  readonly more: string;
  readonly final: boolean;
}

/** One output line of a file: [line number, 1 match | 0 context | 2 separator, text]. */
export type GrepRecord = readonly [number, 0 | 1 | 2, string];

/** The message a worker posts for a file with matches. */
export interface GrepFileMessage {
  readonly index: number;
  readonly matches: number;
  /** True when the file has more matches than `maxMatches`. */
  readonly truncated: boolean;
  readonly records: readonly GrepRecord[];
}
