/**
 * A CloudEvent as a Kafka record, in either content mode of the CloudEvents Kafka binding,
 * through the `cloudevents` library's serialisers.
 */
import { Kafka } from "cloudevents";
import { toLibraryEvent, type CloudEventLike } from "./cloud-event.js";

/** A record ready for a producer: text value, text headers. A transport's `OutboundRecord` fits. */
export interface CloudEventRecord {
  readonly key?: string;
  readonly value: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Serialises `event` for Kafka.
 * - `structured`: the whole event as JSON in the value, header
 *   `content-type: application/cloudevents+json; charset=utf-8`.
 * - `binary`: the data in the value (JSON text when `datacontenttype` is JSON or the data is
 *   not text, the text itself otherwise, empty for no data), each attribute as a `ce_<name>` header (extensions included) and
 *   `content-type` = `datacontenttype`. Headers without a value are left out, and so is the
 *   library's redundant `ce_datacontenttype` (the binding maps it to `content-type`).
 *
 * `key` becomes the record key when given (the watcher uses the trigger's id). Throws
 * `TypeError` when the event is not valid CloudEvents 1.0 or, in binary mode, its data is bytes.
 */
export function toKafkaRecord(
  event: CloudEventLike,
  mode: "structured" | "binary",
  key?: string,
): CloudEventRecord {
  const libraryEvent = toLibraryEvent(event);
  const withKey = key === undefined ? {} : { key };
  if (mode === "structured") {
    const message = Kafka.structured(libraryEvent);
    return { ...withKey, value: String(message.value), headers: textHeaders(message.headers) };
  }
  if (event.data instanceof Uint8Array) {
    throw new TypeError("A CloudEvent with bytes as data can only be sent in structured mode.");
  }
  const message = Kafka.binary(libraryEvent);
  const headers = textHeaders(message.headers);
  delete headers["ce_datacontenttype"];
  // JSON data is always JSON text, a string included; text of another type goes as it is.
  const json = /json$/i.test((event.datacontenttype ?? "").split(";")[0]?.trim() ?? "");
  const value =
    event.data === undefined
      ? ""
      : typeof event.data === "string" && !json
        ? event.data
        : JSON.stringify(event.data);
  return { ...withKey, value, headers };
}

function textHeaders(headers: Readonly<Record<string, unknown>>): Record<string, string> {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && value !== null) entries.push([name, String(value)]);
  }
  return Object.fromEntries(entries);
}
