export {
  parseXzeprEvent,
  XzeprEventError,
  xzeprEventEntitySchema,
  xzeprEventSchema,
  type XzeprEvent,
  type XzeprEventEntity,
} from "./xzepr-event.js";
