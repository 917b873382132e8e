/**
 * The CloudEvents 1.0 shape this package reads and writes, and its validation through the
 * `cloudevents` library (its JSON schema and attribute-name rules), with the library's
 * lenient spots closed: it invents an `id` and a `time` when they are missing and silently
 * skips validation for any `specversion` other than "1.0".
 */
import { CloudEvent, ValidationError } from "cloudevents";

/** A CloudEvents extension value: the type system allows text, integers and booleans. */
export type CloudEventExtensionValue = string | number | boolean;

/**
 * A CloudEvents 1.0 event as plain data. Extension attributes (`traceparent`, `triggerid`)
 * sit in `extensions`; their names are lowercase letters and digits only. `data` is
 * `undefined` for an event without data, text or a parsed JSON value otherwise, and bytes
 * (`Uint8Array`) for binary data.
 */
export interface CloudEventLike<Data = unknown> {
  readonly specversion: "1.0";
  readonly id: string;
  readonly source: string;
  readonly type: string;
  readonly time?: string;
  readonly subject?: string;
  readonly datacontenttype?: string;
  readonly dataschema?: string;
  readonly data: Data;
  readonly extensions: Readonly<Record<string, CloudEventExtensionValue>>;
}

/** Attributes the CloudEvents 1.0 spec requires. */
const REQUIRED = ["id", "source", "type", "specversion"] as const;
/** Attributes that are not extensions (1.0 and the library's 0.3 leftovers). */
const KNOWN = new Set<string>([
  ...REQUIRED,
  "time",
  "subject",
  "datacontenttype",
  "dataschema",
  "data",
  "data_base64",
  "datacontentencoding",
  "schemaurl",
]);
/** Optional attributes that must be text when present. */
const OPTIONAL_TEXT = ["time", "subject", "datacontenttype", "dataschema"] as const;

/** The names of required attributes that are absent or not text, in spec order. */
export function missingRequiredAttributes(attributes: Readonly<Record<string, unknown>>): string[] {
  return REQUIRED.filter((name) => typeof attributes[name] !== "string");
}

/** One ajv error of the library's schema, as words. */
function describeSchemaError(error: unknown): string {
  if (typeof error === "string") return error;
  const entry = error as {
    keyword?: string;
    instancePath?: string;
    message?: string;
    params?: { missingProperty?: string };
  };
  if (entry.keyword === "required" && entry.params?.missingProperty)
    return `the attribute ${entry.params.missingProperty} is missing`;
  const attribute = (entry.instancePath ?? "").replace(/^\//, "") || "the event";
  return `${attribute} ${entry.message ?? "is invalid"}`;
}

/** Why the library refused an event, as one sentence fragment. */
export function describeValidationFailure(error: unknown): string {
  if (error instanceof ValidationError) {
    const details = (error.errors ?? []) as unknown[];
    if (details.length > 0) return details.slice(0, 5).map(describeSchemaError).join("; ");
    return error.message.split("\n")[0] ?? "it is invalid";
  }
  if (error instanceof RangeError) return "its time is not a valid timestamp";
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\.+$/, "");
}

/**
 * Checks a library event (built without validation) as CloudEvents 1.0 and turns it into a
 * {@link CloudEventLike}. Returns a reason when it is not valid. `timeGiven` says whether the
 * message carried a `time` (the library fills in the current time when it did not).
 */
export function checkLibraryEvent(
  event: CloudEvent<unknown>,
  timeGiven: boolean,
): { ok: true; event: CloudEventLike } | { ok: false; reason: string } {
  if (event.specversion !== "1.0") {
    return { ok: false, reason: `its specversion is "${event.specversion}", not "1.0"` };
  }
  try {
    event.validate();
  } catch (error) {
    return { ok: false, reason: describeValidationFailure(error) };
  }
  const source = event as unknown as Record<string, unknown>;
  for (const name of OPTIONAL_TEXT) {
    const value = source[name];
    if (value !== undefined && typeof value !== "string")
      return { ok: false, reason: `the attribute ${name} must be text` };
  }
  const extensions: Record<string, CloudEventExtensionValue> = {};
  for (const [name, value] of Object.entries(source)) {
    if (KNOWN.has(name) || value === undefined) continue;
    if (typeof value === "string" || typeof value === "boolean") extensions[name] = value;
    else if (typeof value === "number" && Number.isInteger(value)) extensions[name] = value;
    else
      return { ok: false, reason: `the extension ${name} must be text, an integer or a boolean` };
  }
  return {
    ok: true,
    event: {
      specversion: "1.0",
      id: event.id,
      source: event.source,
      type: event.type,
      ...(timeGiven && event.time !== undefined ? { time: event.time } : {}),
      ...(event.subject !== undefined ? { subject: event.subject } : {}),
      ...(event.datacontenttype !== undefined ? { datacontenttype: event.datacontenttype } : {}),
      ...(event.dataschema !== undefined ? { dataschema: event.dataschema } : {}),
      data: event.data,
      extensions,
    },
  };
}

/**
 * Builds a validated library event from a {@link CloudEventLike}. Throws `TypeError` naming
 * the attribute when it is not valid CloudEvents 1.0 (a programming error in the caller).
 */
export function toLibraryEvent(event: CloudEventLike): CloudEvent<unknown> {
  const missing = missingRequiredAttributes(event as unknown as Record<string, unknown>);
  if (missing.length > 0)
    throw new TypeError(`The CloudEvent lacks the attribute(s) ${missing.join(", ")}.`);
  for (const name of Object.keys(event.extensions)) {
    if (KNOWN.has(name))
      throw new TypeError(`The CloudEvent extension ${name} clashes with a standard attribute.`);
  }
  try {
    return new CloudEvent<unknown>(
      {
        ...event.extensions,
        specversion: event.specversion,
        id: event.id,
        source: event.source,
        type: event.type,
        time: event.time,
        subject: event.subject,
        datacontenttype: event.datacontenttype,
        dataschema: event.dataschema,
        data: event.data,
      },
      true,
    );
  } catch (error) {
    throw new TypeError(`The CloudEvent is not valid: ${describeValidationFailure(error)}.`);
  }
}
