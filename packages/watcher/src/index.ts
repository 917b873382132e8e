export {
  createEventFilter,
  EventFilterError,
  type EventFilter,
  type EventFilterOptions,
} from "./event-filter.js";
