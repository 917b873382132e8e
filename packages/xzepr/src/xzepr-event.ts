import { z } from "zod";

/** The marker `isXzatomaError` in `@xzatoma/core` recognises across packages. */
const XZATOMA_ERROR = Symbol.for("xzatoma.error");

/**
 * CloudEvents 1.0 attribute value. XZepr writes the spec release (`1.0.1`) instead of
 * `1.0`; every 1.0.x release is accepted and read as 1.0.
 */
const specVersion = z
  .string()
  .regex(/^1\.0(\.\d+)?$/, 'must be CloudEvents 1.0 ("1.0" or a 1.0.x release)');

/** One event entity as XZepr stores it. */
export const xzeprEventEntitySchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  release: z.string(),
  platform_id: z.string(),
  package: z.string(),
  description: z.string(),
  payload: z.unknown(),
  success: z.boolean(),
  event_receiver_id: z.string(),
  created_at: z.string(),
});

/**
 * A receiver or group summary. XZepr names the kind `receiver_type` / `group_type`
 * where older consumers expected `type`; both spellings are accepted.
 */
const namedEntity = z.looseObject({ id: z.string(), name: z.string() });

/**
 * The envelope XZepr publishes to Kafka: CloudEvents-like, with underscore extensions
 * (`api_version`, `platform_id`) and no `time`.
 */
export const xzeprEventSchema = z.looseObject({
  success: z.boolean(),
  id: z.string().min(1),
  specversion: specVersion,
  type: z.string().min(1),
  source: z.string().min(1),
  api_version: z.string(),
  name: z.string(),
  version: z.string(),
  release: z.string(),
  platform_id: z.string(),
  package: z.string(),
  data: z.looseObject({
    events: z.array(xzeprEventEntitySchema).default([]),
    event_receivers: z.array(namedEntity).default([]),
    event_receiver_groups: z.array(namedEntity).default([]),
  }),
});

/** A validated XZepr event. */
export type XzeprEvent = z.output<typeof xzeprEventSchema>;
/** One event entity inside {@link XzeprEvent}'s `data.events`. */
export type XzeprEventEntity = z.output<typeof xzeprEventEntitySchema>;

/** An event that is not valid JSON or not an XZepr event; `issues` name the fields. */
export class XzeprEventError extends Error {
  readonly [XZATOMA_ERROR] = true;
  readonly code = "XZEPR_EVENT_INVALID";
  override readonly name = "XzeprEventError";
  constructor(
    message: string,
    readonly issues: readonly string[] = [],
  ) {
    super(message);
  }
}

/**
 * Parses and validates one XZepr event from a Kafka message value (text or bytes).
 * Throws {@link XzeprEventError} naming each invalid field.
 */
export function parseXzeprEvent(value: string | Uint8Array): XzeprEvent {
  const text =
    typeof value === "string" ? value : new TextDecoder("utf-8", { fatal: true }).decode(value);
  if (text.trim() === "") throw new XzeprEventError("The event is empty.");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new XzeprEventError(`The event is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = xzeprEventSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(event)"}: ${issue.message}`,
    );
    throw new XzeprEventError(`The event is not an XZepr event: ${issues.join("; ")}`, issues);
  }
  return parsed.data;
}
