import { describe, expect, it } from "vitest";
import { describeRefusal } from "./refusal-words.js";

const TAIL = " Do not retry it; continue another way or explain what you need.";

describe("describeRefusal", () => {
  it("says the person refused it, without the instructions to the model", () => {
    expect(
      describeRefusal(`The call to 'write_file' was not approved (the user rejected it).${TAIL}`),
    ).toBe("not run: you refused it");
  });

  it("keeps a policy's reason and drops the advice meant for the model", () => {
    const error = `The call to 'delete_path' was not approved: Only a person's yes can allow this, and no one is asked here (approval policy: never); do it another way, or ask the user to do it.${TAIL}`;
    expect(describeRefusal(error)).toBe(
      "not run: only a person's yes can allow this, and no one is asked here (approval policy: never)",
    );
  });

  it("calls a block a block", () => {
    expect(
      describeRefusal(
        "Refused: '.git/config' is inside version control internals. This call will not run in any mode; do not retry it.",
      ),
    ).toBe("blocked: '.git/config' is inside version control internals");
  });

  it("shows an unknown refusal's first line as it is", () => {
    expect(describeRefusal("The edited input for 'x' is invalid: path: required.\nmore")).toBe(
      "The edited input for 'x' is invalid: path: required.",
    );
  });
});
