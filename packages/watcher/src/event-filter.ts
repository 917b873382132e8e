import { XzatomaError } from "@xzatoma/errors";

/** Which events the watcher acts on. Every set criterion must hold. */
export interface EventFilterOptions {
  /** Only events with `success: true`. */
  readonly successOnly?: boolean;
  /** Only these event types (exact match); empty or absent means any. */
  readonly eventTypes?: readonly string[];
  /** A regular expression that must match somewhere in `source`: case-sensitive unless it starts with `(?i)`. */
  readonly sourcePattern?: string;
  readonly platformId?: string;
  readonly package?: string;
  readonly apiVersion?: string;
}

/**
 * What a filter looks at. An XZepr event has every field; a CloudEvent has `type` and
 * `source`, and the others only when it carries them (as extensions).
 */
export interface FilterableEvent {
  readonly type: string;
  readonly source: string;
  /** Absent for events that do not say (`success_only` then lets them through). */
  readonly success?: boolean;
  readonly platform_id?: string;
  readonly package?: string;
  readonly api_version?: string;
}

/** Why an event was skipped, or `undefined` when it passes. */
export type EventFilter = (event: FilterableEvent) => string | undefined;

/**
 * An invalid filter setting (code `EVENT_FILTER_INVALID`), named by its key in the message
 * and, when the thrower knows it, in `fields.key` (e.g. `watcher.generic_match.version`).
 */
export class EventFilterError extends XzatomaError<{ readonly key?: string }> {
  declare readonly code: "EVENT_FILTER_INVALID";
  override readonly name = "EventFilterError";

  constructor(message: string, key?: string) {
    super("EVENT_FILTER_INVALID", message, { fields: key === undefined ? {} : { key } });
  }
}

/**
 * A leading inline flag group as Go, Rust, PCRE and Python write it: `(?i)`, `(?-i)`,
 * `(?ms)`, `(?s-i)`. JavaScript has no such group (it has the scoped `(?i:...)`), so it is
 * read here and turned into flags. Nothing else that opens with `(?` is one: `(?:...)`,
 * `(?<name>...)`, `(?=...)`, `(?!...)`, `(?<=...)` and `(?i:...)` are ordinary JavaScript
 * and change no flag.
 */
const INLINE_FLAGS = /^\(\?([A-Za-z]*)(?:-([A-Za-z]*))?\)/;

/** The flags a leading group may set or clear. */
const JAVASCRIPT_FLAGS = "ims";

/**
 * Compiles a configured regular expression, throwing an {@link EventFilterError} naming
 * `key` when it is not one. `caseInsensitive` is the default; a leading `(?i)` turns case
 * insensitivity on, `(?-i)` off, and `m` and `s` may be set the same way.
 */
export function compilePattern(key: string, pattern: string, caseInsensitive: boolean): RegExp {
  const flags = new Set(caseInsensitive ? ["i"] : []);
  let source = pattern;
  const inline = INLINE_FLAGS.exec(pattern);
  const on = inline?.[1] ?? "";
  const off = inline?.[2] ?? "";
  if (inline && (on !== "" || off !== "")) {
    source = pattern.slice(inline[0].length);
    for (const flag of on + off) {
      if (!JAVASCRIPT_FLAGS.includes(flag)) {
        throw new EventFilterError(
          `${key}: '${pattern}' sets the inline flag '${flag}', which JavaScript regular expressions lack (a leading group may set i, m and s: '(?i)', '(?-i)', '(?ms)').`,
          key,
        );
      }
    }
    for (const flag of on) flags.add(flag);
    for (const flag of off) flags.delete(flag);
  }
  try {
    return new RegExp(source, [...flags].join(""));
  } catch (error) {
    throw new EventFilterError(
      `${key}: '${pattern}' is not a valid regular expression: ${(error as Error).message}`,
      key,
    );
  }
}

/**
 * Builds the filter once, so an invalid `sourcePattern` fails when the watcher starts,
 * not on the first event.
 */
export function createEventFilter(options: EventFilterOptions): EventFilter {
  const source =
    options.sourcePattern === undefined
      ? undefined
      : compilePattern("filters.source_pattern", options.sourcePattern, false);
  const types =
    options.eventTypes && options.eventTypes.length > 0 ? new Set(options.eventTypes) : undefined;
  return (event) => {
    if (options.successOnly && event.success === false) return "the event did not succeed";
    if (types && !types.has(event.type))
      return `type '${event.type}' is not one of ${[...types].join(", ")}`;
    if (source && !source.test(event.source))
      return `source '${event.source}' does not match ${String(source)}`;
    if (options.platformId !== undefined && event.platform_id !== options.platformId) {
      return `platform_id '${event.platform_id ?? "(none)"}' is not '${options.platformId}'`;
    }
    if (options.package !== undefined && event.package !== options.package) {
      return `package '${event.package ?? "(none)"}' is not '${options.package}'`;
    }
    if (options.apiVersion !== undefined && event.api_version !== options.apiVersion) {
      return `api_version '${event.api_version ?? "(none)"}' is not '${options.apiVersion}'`;
    }
    return undefined;
  };
}
