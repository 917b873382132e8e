import { describe, expect, it } from "vitest";
import { kafkaJsLineLevel } from "./kafka-log.js";

describe("kafkajs's lines as the watcher logs them", () => {
  it("passes routine changes of the group's membership on at info, whatever kafkajs said", () => {
    expect(kafkaJsLineLevel("warn", "The group is rebalancing, re-joining", {})).toBe("info");
    expect(
      kafkaJsLineLevel(
        "error",
        "The coordinator is not aware of this member, re-joining the group",
        {},
      ),
    ).toBe("info");
    expect(
      kafkaJsLineLevel("error", "Crash: KafkaJSProtocolError: x", {
        error: "The group is rebalancing, so a rejoin is needed",
      }),
    ).toBe("info");
  });

  it("keeps everything else at its level", () => {
    expect(kafkaJsLineLevel("error", "Connection error: connect ECONNREFUSED", {})).toBe("error");
    expect(kafkaJsLineLevel("warn", "Response Metadata", { error: "timeout" })).toBe("warn");
    expect(kafkaJsLineLevel("debug", "rebalancing", {})).toBe("debug");
  });
});
