export {
  parseXzeprEvent,
  XzeprEventError,
  xzeprEventEntitySchema,
  xzeprEventSchema,
  xzeprReceiverGroupSchema,
  xzeprReceiverSchema,
  type XzeprEvent,
  type XzeprEventEntity,
  type XzeprReceiver,
  type XzeprReceiverGroup,
} from "./xzepr-event.js";
export {
  decodeEventMessage,
  MAX_JSON_DEPTH,
  type DecodedCloudEvent,
  type DecodedEventMessage,
  type DecodeEventMessageOptions,
  type EventMessage,
} from "./cloudevents/decode-event-message.js";
export type { CloudEventExtensionValue, CloudEventLike } from "./cloudevents/cloud-event.js";
export { toKafkaRecord, type CloudEventRecord } from "./cloudevents/kafka-record.js";
export {
  createResultEvent,
  isResultEventType,
  parseResultEvent,
  RESULT_EVENT_TYPES,
  resultEventDataSchema,
  type CreateResultEventOptions,
  type ParsedResultEvent,
  type ResultEvent,
  type ResultEventData,
  type ResultEventExtensions,
  type ResultEventType,
} from "./cloudevents/result-event.js";
export {
  DEAD_LETTER_HEADERS,
  MAX_DEAD_LETTER_REASON_LENGTH,
  readDeadLetterHeaders,
  toDeadLetterRecord,
  type DeadLetterInfo,
  type DeadLetterOrigin,
  type DeadLetterRecord,
} from "./cloudevents/dead-letter.js";
export {
  createXzeprClient,
  RECEIVER_PAGE_SIZE,
  type FoundReceiver,
  type ListReceiversQuery,
  type XzeprCallOptions,
  type XzeprClient,
  type XzeprClientOptions,
} from "./rest/xzepr-client.js";
export {
  isXzeprApiError,
  XzeprApiError,
  type XzeprApiErrorFields,
} from "./rest/xzepr-api-error.js";
export type {
  CreateEvent,
  CreateGroup,
  CreateReceiver,
  UpdateGroup,
  UpdateReceiver,
  XzeprApiEvent,
  XzeprApiGroup,
  XzeprApiReceiver,
  XzeprHealth,
  XzeprReceiverPage,
} from "./rest/xzepr-api-types.js";
export {
  resolveXzeprClientOptions,
  XZEPR_API_TOKEN_ENV,
  type XzeprApiSettings,
} from "./config/xzepr-client-options.js";
export type {
  ConsumeOptions,
  EventTransport,
  InboundMessage,
  MessageHandler,
  MessageOutcome,
  OutboundRecord,
  ReadTopicOptions,
  TopicRecords,
  TopicSpec,
} from "./transport/event-transport.js";
export {
  createMemoryTransport,
  type MemoryTransport,
  type MemoryTransportOptions,
  type StoredMessage,
} from "./transport/memory-transport.js";
