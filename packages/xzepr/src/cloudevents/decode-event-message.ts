/**
 * Tells apart what arrives on a watcher's topic: XZepr's own envelope, a CloudEvents 1.0
 * event (Kafka binary or structured mode), plain text (a plan as JSON or YAML), or something
 * unusable, with a sentence saying why. Never throws.
 */
import { CloudEvent, Kafka, type KafkaMessage, type Message } from "cloudevents";
import { checkXzeprEvent, type XzeprEvent } from "../xzepr-event.js";
import {
  checkLibraryEvent,
  describeValidationFailure,
  missingRequiredAttributes,
  type CloudEventLike,
} from "./cloud-event.js";

/** A consumed message as the decoder needs it (a transport's `InboundMessage` fits). */
export interface EventMessage {
  /** The message body; `null` for a tombstone. */
  readonly value: Uint8Array | null;
  /** Header values as text. Names are matched case-insensitively. */
  readonly headers: Readonly<Record<string, string>>;
  readonly key?: string | undefined;
}

/** A CloudEvent read from Kafka, and the content mode it came in. */
export interface DecodedCloudEvent extends CloudEventLike {
  readonly mode: "binary" | "structured";
}

/**
 * What a message turned out to be.
 * - `xzepr`: XZepr's envelope (`specversion` "1.0.x", `api_version`, `platform_id`, ...), validated.
 * - `cloudevent`: a CloudEvents 1.0 event, validated (required attributes present, attribute
 *   formats and names as the spec says).
 * - `plain`: UTF-8 text that is neither, given whole (only when `plain: true` was asked for);
 *   the generic watcher reads it as a plan in JSON or YAML.
 * - `invalid`: nothing usable; `reason` is one sentence for a log line or a dead-letter header.
 */
export type DecodedEventMessage =
  | { readonly kind: "xzepr"; readonly event: XzeprEvent }
  | { readonly kind: "cloudevent"; readonly event: DecodedCloudEvent }
  | { readonly kind: "plain"; readonly text: string }
  | { readonly kind: "invalid"; readonly reason: string };

/** Options of {@link decodeEventMessage}. */
export interface DecodeEventMessageOptions {
  /**
   * Give UTF-8 text that is neither a CloudEvent nor an XZepr event back as
   * `{ kind: "plain", text }` instead of `invalid`. Default `false`.
   */
  readonly plain?: boolean;
}

const CONTENT_TYPE = "content-type";
const STRUCTURED = "application/cloudevents";
const STRUCTURED_JSON = "application/cloudevents+json";
const BATCH = "application/cloudevents-batch";
/** Binary-mode header of each required attribute. */
const BINARY_REQUIRED = {
  id: "ce_id",
  source: "ce_source",
  type: "ce_type",
  specversion: "ce_specversion",
};

type Json = Record<string, unknown>;

function invalid(reason: string): DecodedEventMessage {
  return { kind: "invalid", reason };
}

/** Header names lowercased, values as text; built without assignment so no name is special. */
function normaliseHeaders(headers: Readonly<Record<string, unknown>> | undefined): Json {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined || value === null) continue;
    const text =
      typeof value === "string"
        ? value
        : value instanceof Uint8Array
          ? new TextDecoder().decode(value)
          : String(value);
    entries.push([name.toLowerCase(), text]);
  }
  return Object.fromEntries(entries);
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * JSON deeper than this is refused before parsing: `JSON.parse` copes, but whoever later
 * serialises or walks the value recursively (a plan re-serialised for the prompt) would not.
 */
export const MAX_JSON_DEPTH = 512;

/** Whether JSON text nests deeper than {@link MAX_JSON_DEPTH}; one linear pass, strings skipped. */
function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

/**
 * A JSON object, or why the text is not one. Text not starting with `{` is refused without
 * parsing. `hostile` marks a refusal that plain mode must not pass on either.
 */
function parseJsonObject(text: string): { json: Json } | { error: string; hostile?: true } {
  const first = /\S/.exec(text)?.[0];
  if (first !== "{") return { error: "it is not a JSON object" };
  if (nestsTooDeep(text))
    return { error: `it nests deeper than ${MAX_JSON_DEPTH} levels`, hostile: true };
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json === "object" && json !== null && !Array.isArray(json))
      return { json: json as Json };
    return { error: "it is not a JSON object" };
  } catch (error) {
    return { error: `it is not valid JSON (${(error as Error).message})` };
  }
}

/** CloudEvents attribute names: lowercase letters and digits (`data_base64` excepted). */
function invalidAttributeName(json: Json): string | undefined {
  return Object.keys(json).find((name) => !/^[a-z0-9]+$/.test(name) && name !== "data_base64");
}

/** An XZepr envelope has underscore attributes (never legal in CloudEvents) or a 1.0.x release. */
function looksLikeXzepr(json: Json): boolean {
  return (
    Object.hasOwn(json, "api_version") ||
    Object.hasOwn(json, "platform_id") ||
    (typeof json["specversion"] === "string" && /^1\.0\.\d+$/.test(json["specversion"]))
  );
}

function decodeXzepr(json: Json): DecodedEventMessage {
  const checked = checkXzeprEvent(json);
  if (checked.ok) return { kind: "xzepr", event: checked.event };
  const missing = checked.issues
    .filter((issue) => issue.endsWith("received undefined"))
    .map((issue) => issue.slice(0, issue.indexOf(":")));
  const wrong = checked.issues.filter((issue) => !issue.endsWith("received undefined"));
  const parts = [
    ...(missing.length > 0 ? [`it lacks the field(s) ${missing.join(", ")}`] : []),
    ...(wrong.length > 0 ? [`invalid: ${wrong.slice(0, 10).join("; ")}`] : []),
  ];
  return invalid(`The message looks like an XZepr event but ${parts.join("; ")}.`);
}

function decodeStructured(json: Json, declared: boolean): DecodedEventMessage {
  const missing = missingRequiredAttributes(json);
  if (missing.length > 0) {
    return invalid(
      `The message is a structured CloudEvent${declared ? "" : " (it has a specversion)"} but lacks the required attribute(s) ${missing.join(", ")}.`,
    );
  }
  const badName = invalidAttributeName(json);
  if (badName !== undefined) {
    return invalid(
      `The message is not a valid CloudEvent: the attribute name ${JSON.stringify(badName).slice(0, 60)} is not lowercase letters and digits.`,
    );
  }
  // `Kafka.toEvent` would parse the text a second time and throws on a missing `time`;
  // this is the same construction it does, from the object already parsed.
  let event: CloudEvent<unknown>;
  try {
    event = new CloudEvent<unknown>({ ...json }, false);
  } catch (error) {
    return invalid(`The message is not a valid CloudEvent: ${describeValidationFailure(error)}.`);
  }
  const checked = checkLibraryEvent(event, Object.hasOwn(json, "time"));
  if (!checked.ok) return invalid(`The message is not a valid CloudEvent: ${checked.reason}.`);
  return { kind: "cloudevent", event: { ...checked.event, mode: "structured" } };
}

/** Whether binary-mode data of this content type is text (absent: assumed text). */
function isTextual(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return type.startsWith("text/") || /(json|xml|yaml)$/.test(type);
}

function decodeBinary(value: Uint8Array, headers: Json): DecodedEventMessage {
  const missing = Object.entries(BINARY_REQUIRED)
    .filter(([, header]) => typeof headers[header] !== "string" || headers[header] === "")
    .map(([attribute, header]) => `${attribute} (header ${header})`);
  if (missing.length > 0) {
    return invalid(`The message is a binary-mode CloudEvent but lacks ${missing.join(", ")}.`);
  }
  if (headers["ce_specversion"] !== "1.0") {
    return invalid(
      `The message is a binary-mode CloudEvent with specversion "${String(headers["ce_specversion"])}"; only CloudEvents 1.0 is read.`,
    );
  }
  const contentType = headers[CONTENT_TYPE] as string | undefined;
  let body: string | Buffer;
  if (isTextual(contentType)) {
    const text = decodeUtf8(value);
    if (text === undefined)
      return invalid("The message's CloudEvent data is not valid UTF-8 text.");
    if (/json$/i.test((contentType ?? "").split(";")[0]?.trim() ?? "") && nestsTooDeep(text)) {
      return invalid(`The message's CloudEvent data nests deeper than ${MAX_JSON_DEPTH} levels.`);
    }
    body = text;
  } else {
    body = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  let decoded: unknown;
  try {
    // The library sets the `partitionkey` extension from the key; only a header sets it here.
    const partitionKey = headers["ce_partitionkey"];
    const kafkaMessage: KafkaMessage<string | Buffer> = {
      key: typeof partitionKey === "string" ? partitionKey : "",
      value: body,
      body,
      headers: headers as Record<string, string>,
    };
    decoded = Kafka.toEvent(kafkaMessage as unknown as Message);
  } catch (error) {
    if (error instanceof SyntaxError)
      return invalid(
        `The message's CloudEvent data is declared ${contentType} but is not valid JSON.`,
      );
    return invalid(`The message is not a valid CloudEvent: ${describeValidationFailure(error)}.`);
  }
  if (!(decoded instanceof CloudEvent)) return invalid("The message is not a single CloudEvent.");
  const checked = checkLibraryEvent(decoded, Object.hasOwn(headers, "ce_time"));
  if (!checked.ok) return invalid(`The message is not a valid CloudEvent: ${checked.reason}.`);
  const extensions = { ...checked.event.extensions };
  if (!Object.hasOwn(headers, "ce_partitionkey")) delete extensions["partitionkey"];
  return { kind: "cloudevent", event: { ...checked.event, extensions, mode: "binary" } };
}

function decode(message: EventMessage, options: DecodeEventMessageOptions): DecodedEventMessage {
  const value = message.value;
  if (value === null || value === undefined || value.byteLength === 0) {
    return invalid("The message has no value (empty or a tombstone).");
  }
  const headers = normaliseHeaders(message.headers);
  const contentType =
    typeof headers[CONTENT_TYPE] === "string" ? (headers[CONTENT_TYPE] as string) : "";
  const loweredType = contentType.toLowerCase();
  if (Object.keys(headers).some((name) => name.startsWith("ce_")))
    return decodeBinary(value, headers);
  if (loweredType.startsWith(BATCH)) {
    return invalid(
      "The message is a batch of CloudEvents (application/cloudevents-batch), which is not read.",
    );
  }
  const declared = loweredType.startsWith(STRUCTURED);
  if (declared && !loweredType.startsWith(STRUCTURED_JSON)) {
    return invalid(
      `The message is a structured CloudEvent in ${contentType}; only application/cloudevents+json is read.`,
    );
  }
  const text = decodeUtf8(value);
  if (text === undefined) return invalid("The message is not valid UTF-8 text.");
  if (text.trim() === "") return invalid("The message has no value (only whitespace).");
  const parsed = parseJsonObject(text);
  if ("error" in parsed) {
    if (declared)
      return invalid(`The message says it is a structured CloudEvent but ${parsed.error}.`);
    return options.plain && parsed.hostile !== true
      ? { kind: "plain", text }
      : invalid(`The message is neither a CloudEvent nor an XZepr event: ${parsed.error}.`);
  }
  const json = parsed.json;
  if (looksLikeXzepr(json)) return decodeXzepr(json);
  const specversion = json["specversion"];
  if (specversion === "1.0") return decodeStructured(json, declared);
  if (specversion !== undefined) {
    return invalid(
      `The message has specversion ${JSON.stringify(specversion)?.slice(0, 40)}; only CloudEvents 1.0 and XZepr's 1.0.x events are read.`,
    );
  }
  if (declared)
    return invalid(
      "The message says it is a structured CloudEvent but lacks the required attribute(s) specversion.",
    );
  return options.plain
    ? { kind: "plain", text }
    : invalid(
        "The message is JSON but neither a CloudEvent nor an XZepr event: it has no specversion.",
      );
}

/**
 * Decodes one consumed message. Order of checks:
 * 1. an empty value or a tombstone is `invalid`;
 * 2. any `ce_*` header makes it a binary-mode CloudEvent: the attributes come from the
 *    headers, `content-type` is the data's content type, and the value is the data (parsed
 *    when the type is `application/json`, text for other textual types, bytes otherwise);
 * 3. `content-type: application/cloudevents+json` makes it a structured-mode CloudEvent;
 * 4. otherwise the value must be UTF-8; a JSON object with `api_version` / `platform_id` or a
 *    `specversion` "1.0.x" is XZepr's envelope, one with `specversion` "1.0" a structured
 *    CloudEvent, one with another `specversion` is `invalid`;
 * 5. anything else is `plain` text when `options.plain` is set, else `invalid`.
 *
 * Never throws, whatever the input. Work is linear in the value's size: text not starting
 * with `{` is not parsed as JSON, and an XZepr event's issues are capped (see `checkXzeprEvent`).
 *
 * @example
 * const decoded = decodeEventMessage(message, { plain: true });
 * if (decoded.kind === "invalid") deadLetter(message, decoded.reason);
 */
export function decodeEventMessage(
  message: EventMessage,
  options: DecodeEventMessageOptions = {},
): DecodedEventMessage {
  try {
    return decode(message, options);
  } catch (error) {
    // Defence in depth: every known failure is turned into a reason above.
    return invalid(`The message could not be decoded: ${describeValidationFailure(error)}.`);
  }
}
