/**
 * The request and response shapes of XZepr's REST API (`/api/v1`). Field names are XZepr's
 * own (snake_case), so what is sent and received reads the same as XZepr's documentation.
 * Responses are validated; unknown fields are kept, so a newer XZepr still parses.
 */
import { z } from "zod";

/** `POST /api/v1/events`. XZepr requires every field; `payload` must be an object. */
export interface CreateEvent {
  readonly name: string;
  readonly version: string;
  readonly release: string;
  readonly platform_id: string;
  readonly package: string;
  readonly description: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly success: boolean;
  /** The receiver's ULID; the receiver must exist. */
  readonly event_receiver_id: string;
}

/** `POST /api/v1/receivers`. `schema` must be an object with a `type` key. */
export interface CreateReceiver {
  readonly name: string;
  readonly type: string;
  readonly version: string;
  readonly description: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

/** `PUT /api/v1/receivers/:id`: the fields to change. */
export type UpdateReceiver = Partial<CreateReceiver>;

/** `POST /api/v1/groups`. At least one receiver id. */
export interface CreateGroup {
  readonly name: string;
  readonly type: string;
  readonly version: string;
  readonly description: string;
  readonly enabled: boolean;
  readonly event_receiver_ids: readonly string[];
}

/** `PUT /api/v1/groups/:id`: the fields to change. */
export type UpdateGroup = Partial<CreateGroup>;

/** The answer to a creation: `{"data": "<ULID>"}`. */
export const createdSchema = z.looseObject({ data: z.string().min(1) });

/** `GET /health`. The stock binaries differ in detail; `status` is always there. */
export const xzeprHealthSchema = z.looseObject({
  status: z.string(),
  service: z.string().optional(),
  version: z.string().optional(),
  components: z.record(z.string(), z.unknown()).optional(),
});
/** `GET /health`. */
export type XzeprHealth = z.output<typeof xzeprHealthSchema>;

/** `GET /api/v1/events/:id`. */
export const xzeprApiEventSchema = z.looseObject({
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
/** An event as the REST API returns it. */
export type XzeprApiEvent = z.output<typeof xzeprApiEventSchema>;

/** `GET /api/v1/receivers/:id`. */
export const xzeprApiReceiverSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  version: z.string(),
  description: z.string(),
  schema: z.unknown(),
  fingerprint: z.string(),
  created_at: z.string(),
});
/** A receiver as the REST API returns it. */
export type XzeprApiReceiver = z.output<typeof xzeprApiReceiverSchema>;

/** `GET /api/v1/groups/:id`. */
export const xzeprApiGroupSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  version: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  event_receiver_ids: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A group as the REST API returns it. */
export type XzeprApiGroup = z.output<typeof xzeprApiGroupSchema>;

const count = z.number().int().min(0);

/** `GET /api/v1/receivers`. */
export const xzeprReceiverPageSchema = z.looseObject({
  data: z.array(xzeprApiReceiverSchema),
  pagination: z.looseObject({ limit: count, offset: count, total: count, has_more: z.boolean() }),
});
/** One page of receivers and where it sits in the whole list. */
export type XzeprReceiverPage = z.output<typeof xzeprReceiverPageSchema>;

/** An error body: `{"error": "<code>", "message": "...", "field"?: "..."}`. */
export const xzeprErrorBodySchema = z.looseObject({
  error: z.string(),
  message: z.string().optional(),
  field: z.string().optional(),
});
