export { startSdk, type MetricReaderLike, type SdkOptions, type Telemetry } from "./start-sdk.js";
