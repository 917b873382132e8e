import { XzatomaError } from "@xzatoma/errors";
import { z } from "zod";

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
 * Receivers and groups name their kind `type` in XZepr's REST responses but
 * `receiver_type` / `group_type` in the entities its system events carry
 * (`xzepr.event.receiver.created`, `xzepr.event.receiver.group.created`). Both spellings are
 * accepted and the output always says `type` (when both are present, `type` wins). Other
 * fields (`owner_id`, `resource_version`) are kept as they are.
 */
function kindAsType<Entity extends { type?: string | undefined }>(
  entity: Entity,
  entityKind: string | undefined,
  context: z.core.$RefinementCtx,
  entityKey: string,
): string {
  const kind = entity.type ?? entityKind;
  if (kind !== undefined) return kind;
  context.addIssue({
    code: "custom",
    path: ["type"],
    message: `expected a string (XZepr also spells it ${entityKey})`,
  });
  return z.NEVER;
}

/** An event receiver as XZepr serialises it (`receiver_type` accepted for `type`). */
export const xzeprReceiverSchema = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    type: z.string().optional(),
    receiver_type: z.string().optional(),
    version: z.string(),
    description: z.string(),
    schema: z.unknown(),
    fingerprint: z.string(),
    created_at: z.string(),
  })
  .transform(({ receiver_type, ...receiver }, context) => ({
    ...receiver,
    type: kindAsType(receiver, receiver_type, context, "receiver_type"),
  }));

/** An event receiver group as XZepr serialises it (`group_type` accepted for `type`). */
export const xzeprReceiverGroupSchema = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    type: z.string().optional(),
    group_type: z.string().optional(),
    version: z.string(),
    description: z.string(),
    enabled: z.boolean(),
    event_receiver_ids: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .transform(({ group_type, ...group }, context) => ({
    ...group,
    type: kindAsType(group, group_type, context, "group_type"),
  }));

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
    event_receivers: z.array(xzeprReceiverSchema).default([]),
    event_receiver_groups: z.array(xzeprReceiverGroupSchema).default([]),
  }),
});

/** A validated XZepr event. */
export type XzeprEvent = z.output<typeof xzeprEventSchema>;
/** One event entity inside {@link XzeprEvent}'s `data.events`. */
export type XzeprEventEntity = z.output<typeof xzeprEventEntitySchema>;
/** One receiver inside {@link XzeprEvent}'s `data.event_receivers`, its kind under `type`. */
export type XzeprReceiver = z.output<typeof xzeprReceiverSchema>;
/** One group inside {@link XzeprEvent}'s `data.event_receiver_groups`, its kind under `type`. */
export type XzeprReceiverGroup = z.output<typeof xzeprReceiverGroupSchema>;

/** An event that is not valid JSON or not an XZepr event; `issues` name the fields. */
export class XzeprEventError extends XzatomaError<{ readonly issues: readonly string[] }> {
  declare readonly code: "XZEPR_EVENT_INVALID";
  override readonly name = "XzeprEventError";
  constructor(
    message: string,
    readonly issues: readonly string[] = [],
  ) {
    super("XZEPR_EVENT_INVALID", message, { fields: { issues } });
  }
}

/** At most this many issues are kept, and at most {@link ISSUES_IN_MESSAGE} are worded in a message. */
const MAX_ISSUES = 100;
const ISSUES_IN_MESSAGE = 10;

/** A JSON value checked against {@link xzeprEventSchema}: the event, or the issues naming each field. */
export type XzeprEventCheck =
  | { readonly ok: true; readonly event: XzeprEvent }
  | { readonly ok: false; readonly issues: readonly string[]; readonly summary: string };

/**
 * Validates an already parsed JSON value as an XZepr event. `issues` name each invalid field
 * (`data.events.0.name: ...`), at most 100 of them; `summary` words the first ten in one line.
 * Internal to the package: {@link parseXzeprEvent} and the message decoder share it.
 */
export function checkXzeprEvent(json: unknown): XzeprEventCheck {
  const parsed = xzeprEventSchema.safeParse(json);
  if (parsed.success) return { ok: true, event: parsed.data };
  const all = parsed.error.issues;
  const issues = all
    .slice(0, MAX_ISSUES)
    .map((issue) => `${issue.path.join(".") || "(event)"}: ${issue.message}`);
  const more = all.length - ISSUES_IN_MESSAGE;
  const summary =
    issues.slice(0, ISSUES_IN_MESSAGE).join("; ") + (more > 0 ? `; and ${more} more` : "");
  return { ok: false, issues, summary };
}

/**
 * Parses and validates one XZepr event from a Kafka message value (text or bytes).
 * Throws {@link XzeprEventError} naming each invalid field (at most 100 in `issues`).
 */
export function parseXzeprEvent(value: string | Uint8Array): XzeprEvent {
  let text: string;
  try {
    text =
      typeof value === "string" ? value : new TextDecoder("utf-8", { fatal: true }).decode(value);
  } catch {
    throw new XzeprEventError("The event is not valid UTF-8 text.");
  }
  if (text.trim() === "") throw new XzeprEventError("The event is empty.");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new XzeprEventError(`The event is not valid JSON: ${(error as Error).message}`);
  }
  const checked = checkXzeprEvent(json);
  if (!checked.ok) {
    throw new XzeprEventError(
      `The event is not an XZepr event: ${checked.summary}`,
      checked.issues,
    );
  }
  return checked.event;
}
