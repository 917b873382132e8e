export { startSdk, type MetricReaderLike, type SdkOptions, type Telemetry } from "./start-sdk.js";
export {
  createRunTelemetry,
  subagentErrorType,
  type RunTelemetry,
  type RunTelemetryOptions,
  type RunTelemetrySource,
  type SubagentErrorType,
  type SubagentFinishedEvent,
  type SubagentRefusedEvent,
  type SubagentStartedEvent,
  type SubagentTelemetryInfo,
  type TelemetryEvent,
} from "./run-telemetry.js";
export { METRIC_NAMES } from "./instruments.js";
export {
  DEFAULT_OTLP_ENDPOINT,
  telemetrySettingsFromEnv,
  type OtlpEndpoint,
  type TelemetrySettings,
} from "./settings.js";
