// The plans under examples/plans/ are what the README and docs/reference/plan-format.md point
// people to: each must validate as the `run` command reads it, and the reference must show
// the release example as the file holds it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parsePlan } from "@xzatoma/core/plan";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PLANS = path.join(ROOT, "examples/plans");

describe("the example plans", () => {
  const files = readdirSync(PLANS).filter((name) => /\.(ya?ml|json|md)$/.test(name));

  it("include the release plan the README names", () => {
    expect(files).toContain("release.yaml");
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8")).toContain(
      "--plan examples/plans/release.yaml",
    );
  });

  it.each(files)("%s validates, with its instructions", (name) => {
    const plan = parsePlan(readFileSync(path.join(PLANS, name), "utf8"), name);
    expect(plan.goal).not.toBe("");
    expect(plan.instructions.length).toBeGreaterThan(0);
  });

  it("are shown in the plan format reference as the file holds them", () => {
    const reference = readFileSync(path.join(ROOT, "docs/reference/plan-format.md"), "utf8");
    const plan = readFileSync(path.join(PLANS, "release.yaml"), "utf8")
      .split("\n")
      .filter((line) => !line.startsWith("#"))
      .join("\n")
      .trim();
    expect(reference).toContain(plan);
  });
});
