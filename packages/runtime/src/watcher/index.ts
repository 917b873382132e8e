/**
 * `@xzatoma/runtime/watcher`: the watcher service assembled from a configuration. A separate
 * entry, so front ends that never watch do not load Kafka and CloudEvents.
 */
export { createRuntimeExecutor, type RuntimeExecutorOptions } from "./runtime-executor.js";
export { startWatcher, type StartedWatcher, type StartWatcherOptions } from "./start-watcher.js";
export {
  brokersOf,
  clientIdOf,
  createWatcherTransport,
  type WatcherTransportOptions,
} from "./watcher-transport.js";
