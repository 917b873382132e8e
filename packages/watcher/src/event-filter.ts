/** The marker `isXzatomaError` in `@xzatoma/core` recognises across packages. */
const XZATOMA_ERROR = Symbol.for("xzatoma.error");

/** Which events the watcher acts on. Every set criterion must hold. */
export interface EventFilterOptions {
  /** Only events with `success: true`. */
  readonly successOnly?: boolean;
  /** Only these event types (exact match); empty or absent means any. */
  readonly eventTypes?: readonly string[];
  /** A regular expression that must match somewhere in `source` (case-sensitive). */
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

/** An invalid filter setting, named by its key. */
export class EventFilterError extends Error {
  readonly [XZATOMA_ERROR] = true;
  readonly code = "EVENT_FILTER_INVALID";
  override readonly name = "EventFilterError";
}

/**
 * Builds the filter once, so an invalid `sourcePattern` fails when the watcher starts,
 * not on the first event.
 */
export function createEventFilter(options: EventFilterOptions): EventFilter {
  let source: RegExp | undefined;
  if (options.sourcePattern !== undefined) {
    try {
      source = new RegExp(options.sourcePattern);
    } catch (error) {
      throw new EventFilterError(
        `filters.source_pattern: '${options.sourcePattern}' is not a valid regular expression: ${(error as Error).message}`,
      );
    }
  }
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
