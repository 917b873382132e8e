import { appendFileSync } from "node:fs";
import { redactStrings, type Redact } from "./redact-record.js";

/** Log levels, least severe first. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Structured fields of a log line. */
export type LogFields = Readonly<Record<string, unknown>>;

/** The watcher's logger: one line per call, JSON or text. */
export interface WatcherLogger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** Options of {@link createWatcherLogger}. */
export interface WatcherLoggerOptions {
  readonly level: LogLevel;
  /** One JSON object per line (`{"time","level","msg",...fields}`), else `time LEVEL msg k=v`. */
  readonly json: boolean;
  /** Where lines go (standard error by default). */
  readonly write?: (line: string) => void;
  /** Also append every line to this file. */
  readonly filePath?: string;
  /**
   * Applied to the message and every string of the fields before a line is written:
   * `redactSecrets` of `@xzatoma/safety`, as the runtime passes it. Default: as they are.
   */
  readonly redact?: Redact;
  readonly now?: () => Date;
}

function textValue(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return /[\s"=]/.test(text ?? "") ? JSON.stringify(text) : String(text);
}

/** A logger that drops lines below `level`. */
export function createWatcherLogger(options: WatcherLoggerOptions): WatcherLogger {
  const threshold = LOG_LEVELS.indexOf(options.level);
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  const redact = options.redact;
  const log = (level: LogLevel, rawMessage: string, rawFields: LogFields = {}) => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const message = redact ? redact(rawMessage) : rawMessage;
    const fields = redact ? (redactStrings(rawFields, redact) as LogFields) : rawFields;
    const time = now().toISOString();
    const line = options.json
      ? `${JSON.stringify({ time, level, msg: message, ...fields })}\n`
      : `${time} ${level.toUpperCase()} ${message}${Object.entries(fields)
          .map(([key, value]) => ` ${key}=${textValue(value)}`)
          .join("")}\n`;
    write(line);
    if (options.filePath !== undefined) {
      try {
        appendFileSync(options.filePath, line, { mode: 0o600 });
      } catch {
        // The log file is a copy; losing a line of it must not stop the service.
      }
    }
  };
  return {
    debug: (message, fields) => log("debug", message, fields),
    info: (message, fields) => log("info", message, fields),
    warn: (message, fields) => log("warn", message, fields),
    error: (message, fields) => log("error", message, fields),
  };
}
