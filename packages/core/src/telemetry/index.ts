export { METRIC_NAMES } from "./instruments.js";
export {
  createRunTelemetry,
  type RunTelemetry,
  type RunTelemetryOptions,
  type SubagentFinishedEvent,
  type SubagentStartedEvent,
  type SubagentTelemetryInfo,
  type TelemetryEvent,
} from "./run-telemetry.js";
export {
  DEFAULT_OTLP_ENDPOINT,
  telemetrySettingsFromEnv,
  type OtlpEndpoint,
  type TelemetrySettings,
} from "./settings.js";
