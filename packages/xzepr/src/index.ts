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
export type {
  ConsumeOptions,
  EventTransport,
  InboundMessage,
  MessageHandler,
  MessageOutcome,
  OutboundRecord,
  TopicRecords,
  TopicSpec,
} from "./transport/event-transport.js";
export {
  createMemoryTransport,
  type MemoryTransport,
  type MemoryTransportOptions,
  type StoredMessage,
} from "./transport/memory-transport.js";
