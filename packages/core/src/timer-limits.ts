/**
 * The longest delay Node's timers keep: 2^31 - 1 ms, about 24.8 days. `setTimeout` with a
 * longer delay fires after 1 ms instead, so every duration key that ends in a timer is capped
 * (`timerSeconds` and `timerMilliseconds` of `@xzatoma/core/config`).
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** {@link MAX_TIMER_MS} in whole seconds: 2147483. */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);
