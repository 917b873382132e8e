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
