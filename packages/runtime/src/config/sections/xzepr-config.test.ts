import { describe, expect, it } from "vitest";
import { xzeprConfigSchema } from "./xzepr-config.js";

function issues(input: unknown): string[] {
  const parsed = xzeprConfigSchema.safeParse(input);
  if (parsed.success) throw new Error("expected the configuration to be refused");
  return parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("xzeprConfigSchema", () => {
  it("fills the defaults: no API, no reporting, the watcher's receiver", () => {
    expect(xzeprConfigSchema.parse({})).toEqual({
      report_results: false,
      receiver: { name: "xzatoma-watcher", type: "xzatoma.watcher.result", version: "1.0.0" },
    });
    expect(
      xzeprConfigSchema.parse({
        api_url: "https://xzepr.example.com/base",
        report_results: true,
        receiver: { name: " ci-results ", version: "2.0.0" },
      }),
    ).toEqual({
      api_url: "https://xzepr.example.com/base",
      report_results: true,
      receiver: { name: "ci-results", type: "xzatoma.watcher.result", version: "2.0.0" },
    });
  });

  it("says what each bad value should be", () => {
    expect(issues({ api_url: "ftp://xzepr" })).toEqual([
      "api_url: expected an http or https URL without a user name or password",
    ]);
    expect(issues({ api_url: "http://user:secret@xzepr:8042" })).toEqual([
      "api_url: expected an http or https URL without a user name or password",
    ]);
    expect(issues({ api_url: 8042 })).toEqual(["api_url: expected an http or https URL"]);
    expect(issues({ report_results: "yes", receiver: { name: "" } })).toEqual([
      "report_results: expected true or false",
      "receiver.name: expected a non-empty string",
    ]);
  });

  it("refuses unknown keys, a token included, and reporting without an API URL", () => {
    expect(issues({ token: "secret" })).toEqual([': Unrecognized key: "token"']);
    expect(issues({ receiver: { kind: "x" } })).toEqual(['receiver: Unrecognized key: "kind"']);
    expect(issues({ report_results: true })).toEqual([
      "report_results: report_results needs xzepr.api_url: set the URL of XZepr's API, or turn it off",
    ]);
  });
});
