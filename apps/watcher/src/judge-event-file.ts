import { createMessageJudge, type Judgement, type WatcherConfig } from "@xzatoma/watcher";

/**
 * The service's judgement of an event file, as if its bytes had arrived as a message on the
 * watcher's topic (no key, no headers): `check-event` and `run-event` answer with the very
 * function the service uses (`createMessageJudge`), so their answer is the service's.
 */
export function judgeEventFile(bytes: Uint8Array, watcher: WatcherConfig): Judgement {
  return createMessageJudge(watcher)({
    topic: watcher.kafka.topic,
    partition: 0,
    offset: "0",
    key: undefined,
    value: bytes,
    headers: {},
    timestamp: Date.now(),
  });
}

/** What each verdict means for a message, in the words `check-event` and `run-event` print. */
export const VERDICT_WORDS: Readonly<Record<Judgement["verdict"], string>> = {
  run: "accepted",
  filter: "filtered",
  skip: "skipped",
  "dead-letter": "dead-lettered",
};
