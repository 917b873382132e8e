export { resolveDataHome, resolveHistoryDbPath, type DataPathInputs } from "./data-paths.js";
