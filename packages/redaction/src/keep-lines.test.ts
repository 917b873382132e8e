import { describe, expect, it } from "vitest";
import { createRedactor, redactSecrets } from "./index.js";

const body = [
  "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
  "QyNTUxOQAAACDkLmYnM8vGhKp7XqV1yYbQ2pZsT3mNwR9cFx0aUeKjLgAAAJgAAAAAAAAAAA",
];
const file = [
  "# deploy key",
  "-----BEGIN OPENSSH PRIVATE KEY-----",
  ...body,
  "-----END OPENSSH PRIVATE KEY-----",
  "user: deploy",
].join("\n");

describe("createRedactor({ keepLines: true })", () => {
  it("keeps the lines a secret spans, a marker on each, so line numbers hold", () => {
    const redacted = createRedactor({ keepLines: true })(file);
    expect(redacted.split("\n")).toEqual([
      "# deploy key",
      "-----BEGIN OPENSSH PRIVATE KEY-----",
      "[REDACTED]",
      "[REDACTED]",
      "-----END OPENSSH PRIVATE KEY-----",
      "user: deploy",
    ]);
  });

  it("by default a secret over several lines becomes one marker", () => {
    expect(redactSecrets(file).split("\n")).toHaveLength(5);
  });

  it("changes nothing for a secret on one line", () => {
    expect(createRedactor({ keepLines: true })("password=hunter2x\nnext")).toBe(
      "password=[REDACTED]\nnext",
    );
  });
});
