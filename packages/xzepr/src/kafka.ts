/**
 * `@xzatoma/xzepr/kafka`: the Kafka transport, a separate entry so that reading events and
 * building results never loads the Kafka client.
 */
export * from "./transport/kafka-transport.js";
