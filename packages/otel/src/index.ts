export { startSdk, type SdkOptions, type Telemetry } from "./start-sdk.js";
