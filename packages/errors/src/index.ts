export { ERROR_CODES, isErrorCode, type ErrorCode } from "./error-codes.js";
export {
  describeError,
  isXzatomaError,
  XZATOMA_ERROR,
  XzatomaError,
  type XzatomaErrorOptions,
} from "./xzatoma-error.js";
