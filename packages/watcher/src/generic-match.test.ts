import { describe, expect, it } from "vitest";
import { EventFilterError } from "./event-filter.js";
import { createGenericMatch } from "./generic-match.js";

const matches = (action: string, value: string) =>
  createGenericMatch({ action })({ action: value }) === undefined;

describe("generic_match patterns", () => {
  it("keeps groups that open with (? case-insensitive like any other pattern", () => {
    // Non-capturing, named, lookahead and lookbehind groups are JavaScript; they set no flag.
    expect(matches("^(?:deploy|release)$", "DEPLOY")).toBe(true);
    expect(matches("(?:deploy|release)-(?<env>prod|staging)", "Release-PROD")).toBe(true);
    expect(matches("^(?=dep)deploy", "Deploy")).toBe(true);
    expect(matches("^(?!build)\\w+", "BUILD")).toBe(false);
    expect(matches("(?<=x-)deploy", "X-DEPLOY")).toBe(true);
    expect(matches("deploy", "DePlOy")).toBe(true);
  });

  it("reads a leading inline flag group: (?i) on, (?-i) off, m and s set", () => {
    expect(matches("(?i)deploy", "DEPLOY")).toBe(true);
    expect(matches("(?i)(?:deploy|release)", "RELEASE")).toBe(true);
    expect(matches("(?-i)deploy", "DEPLOY")).toBe(false);
    expect(matches("(?-i)deploy", "deploy")).toBe(true);
    expect(matches("(?-i)(?:Deploy)", "deploy")).toBe(false);
    expect(matches("(?s)deploy.now", "DEPLOY\nnow")).toBe(true);
    expect(matches("(?m)^deploy$", "build\nDEPLOY")).toBe(true);
    expect(matches("(?ms-i)^deploy.now$", "x\nDEPLOY\nnow")).toBe(false);
    expect(matches("(?ms-i)^deploy.now$", "x\ndeploy\nnow")).toBe(true);
    // JavaScript's own scoped modifiers keep working.
    expect(matches("(?-i:Deploy) now", "Deploy NOW")).toBe(true);
    expect(matches("(?-i:Deploy) now", "DEPLOY now")).toBe(false);
  });

  it("refuses an inline flag JavaScript lacks and a pattern that is none, naming the key", () => {
    expect(() => createGenericMatch({ action: "(?x)deploy" })).toThrow(EventFilterError);
    expect(() => createGenericMatch({ action: "(?x)deploy" })).toThrow(
      /^watcher\.generic_match\.action: '\(\?x\)deploy' sets the inline flag 'x'/,
    );
    expect(() => createGenericMatch({ name: "svc(?i)" })).toThrow(
      /^watcher\.generic_match\.name: 'svc\(\?i\)' is not a valid regular expression/,
    );
    expect(() => createGenericMatch({ name: "(?:" })).toThrow(
      /^watcher\.generic_match\.name: '\(\?:' is not a valid regular expression/,
    );
  });

  it("applies the name pattern the same way", () => {
    const match = createGenericMatch({ name: "^(?:svc|api)-" });
    expect(match({ name: "SVC-a" })).toBeUndefined();
    expect(match({ name: "web-a" })).toMatch(
      /^name 'web-a' does not match \/\^\(\?:svc\|api\)-\/i$/,
    );
  });
});
