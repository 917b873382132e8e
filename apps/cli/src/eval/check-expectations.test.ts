// Which cases cannot pass without a tool: the difference between `no-tool-call` and
// `expectation` when a model answers without calling anything.
import { describe, expect, it } from "vitest";
import { needsTool } from "./check-expectations.js";
import { evalCaseSchema } from "./suite-schema.js";

const evalCase = (fields: Record<string, unknown>) =>
  evalCaseSchema.parse({ id: "c", prompt: "p", ...fields });

describe("needsTool", () => {
  it("is true for a file to make, a file to delete and a tool the case names", () => {
    expect(needsTool(evalCase({ expect: { files: { "a.txt": { contains: "hi" } } } }))).toBe(true);
    expect(
      needsTool(
        evalCase({
          workspace: { "debug.log": "x" },
          expect: { files: { "debug.log": { absent: true } } },
        }),
      ),
    ).toBe(true);
    expect(needsTool(evalCase({ expect: { tools: { called: ["terminal"] } } }))).toBe(true);
  });

  it("is false when the fresh workspace already meets the file checks: a file that must stay as it is", () => {
    expect(
      needsTool(
        evalCase({
          workspace: { "README.md": "# keep\n" },
          expect: {
            files: { "README.md": { equals: "# keep\n" }, "gone.txt": { absent: true } },
            answer: { contains: "no" },
          },
        }),
      ),
    ).toBe(false);
  });
});
