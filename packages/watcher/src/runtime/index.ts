/**
 * `@xzatoma/watcher/runtime`: the watcher service assembled from a configuration file's
 * sections, each event's plan run by an `@xzatoma/runtime` agent. `xzatoma-watcher run` and
 * `xzatoma watch` both start it. A separate entry from the service itself (`@xzatoma/watcher`,
 * which runs events through any executor it is given), and the one place that joins the
 * service to the agent runtime: `@xzatoma/runtime` knows nothing of Kafka
 * (docs/explanation/watcher-wiring.md).
 */
export { createRuntimeExecutor, type RuntimeExecutorOptions } from "./runtime-executor.js";
export { startWatcher, type StartedWatcher, type StartWatcherOptions } from "./start-watcher.js";
export {
  brokersOf,
  clientIdOf,
  createWatcherTransport,
  type WatcherTransportOptions,
} from "./watcher-transport.js";
