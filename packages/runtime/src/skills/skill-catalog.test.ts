import { describe, expect, it } from "vitest";
import { skillCatalog } from "./skill-catalog.js";
import type { Skill } from "./skill-file.js";

const skill = (name: string, description: string): Skill => ({
  name,
  description,
  body: "BODY-NEVER-LISTED",
  file: `/s/${name}/SKILL.md`,
  directory: `/s/${name}`,
  scope: "user",
  sha256: "0",
});

describe("skillCatalog", () => {
  it("lists names and descriptions only, never a body", () => {
    const text = skillCatalog([skill("release", "Cut a release."), skill("lint", "Fix lint.")]);
    expect(text).toContain("- release: Cut a release.");
    expect(text).toContain("- lint: Fix lint.");
    expect(text).not.toContain("BODY-NEVER-LISTED");
  });

  it("stays within its byte budget, naming the skills past it", () => {
    const many = Array.from({ length: 40 }, (_, i) => skill(`s${i}`, "d".repeat(150)));
    const text = skillCatalog(many, 2048);
    const [listed, rest] = text.split("More skills");
    expect(Buffer.byteLength(listed ?? "")).toBeLessThanOrEqual(2048);
    expect(rest).toContain("s39");
  });

  it("is empty without skills", () => {
    expect(skillCatalog([])).toBe("");
  });
});
