/**
 * The URL guard: server-side request forgery protection for the fetch tool and `@url`
 * mentions. `checkUrl` judges a URL before anything connects; `createGuardedFetch` checks
 * every address at connect time, every redirect hop, and caps size and time.
 */
export { isDeniedAddress } from "./address-policy.js";
export { createAllowance, type Allowance, type UrlGuardOptions } from "./allowance.js";
export { checkMention, checkUrl, type UrlDecision, type UrlVerdict } from "./check-url.js";
export {
  resolveAllowedAddresses,
  systemLookup,
  type LookupFunction,
  type ResolvedAddress,
} from "./guarded-lookup.js";
export {
  createGuardedFetch,
  type GuardedFetch,
  type GuardedFetchInit,
  type GuardedFetchOptions,
  type GuardedResponse,
} from "./guarded-fetch.js";
export type { ByteCapAction } from "./read-body.js";
export { UrlBlockedError, type UrlRefusal } from "./url-blocked-error.js";
