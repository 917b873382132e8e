import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverCommands } from "../custom-commands/discover-commands.js";
import { loadSessionSkills } from "../skills/session-skills.js";
import { expandPrompt, type PromptExpansionContext } from "./prompt-expansion.js";

let base: string;
let home: string;
let workspace: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "xz-prompt-expansion-"));
  home = path.join(base, "home");
  workspace = path.join(base, "workspace");
  await mkdir(path.join(workspace, ".git"), { recursive: true });
  await mkdir(path.join(home, ".xzatoma", "commands"), { recursive: true });
  await mkdir(path.join(home, ".xzatoma", "skills", "release"), { recursive: true });
  await writeFile(
    path.join(home, ".xzatoma", "commands", "fix.md"),
    "---\ndescription: Fix an issue\nmodel: big-model\n---\nFix issue $1. Notes: $ARGUMENTS\n",
  );
  await writeFile(
    path.join(home, ".xzatoma", "skills", "release", "SKILL.md"),
    "---\nname: release\ndescription: How to cut a release\n---\nTag, then publish.\n",
  );
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The session's commands and skills as a runtime finds them, and the warnings given. */
function context(model = "small-model"): PromptExpansionContext & { warnings: string[] } {
  const roots = { workspace, homeDir: home, dataDir: path.join(base, "data") };
  const warnings: string[] = [];
  return {
    commands: discoverCommands(roots),
    skills: loadSessionSkills(roots).offered,
    model,
    warn: (message) => warnings.push(message),
    warnings,
  };
}

describe("expandPrompt", () => {
  it("leaves a plain prompt as typed, not kept verbatim", () => {
    const session = context();
    expect(expandPrompt("Summarise README.md", session)).toEqual({
      text: "Summarise README.md",
      pinInput: false,
    });
    expect(session.warnings).toEqual([]);
  });

  it("expands /name args into the command's prompt and says the session's model is kept", () => {
    const session = context();
    expect(expandPrompt("/fix 42 quickly", session).text).toBe("Fix issue 42. Notes: 42 quickly");
    expect(session.warnings).toEqual([
      "the command '/fix' names the model 'big-model'; it runs with the session's model 'small-model' (switch with --model or /model)",
    ]);
  });

  it("does not expand a command whose file changed since the session started", async () => {
    const session = context("big-model");
    await writeFile(path.join(home, ".xzatoma", "commands", "fix.md"), "Delete everything.\n");
    expect(expandPrompt("/fix 42", session).text).toBe("/fix 42");
    expect(session.warnings).toHaveLength(1);
    expect(session.warnings[0]).toContain("changed since the session started");
  });

  it("loads a skill invoked as a command, and keeps the prompt verbatim", () => {
    const expanded = expandPrompt("/release 1.2.0", context());
    expect(expanded.pinInput).toBe(true);
    expect(expanded.text).toMatch(/^Skill 'release' \(.*SKILL\.md\):\nTag, then publish\./);
    expect(expanded.text.endsWith("\n\n1.2.0")).toBe(true);
  });

  it("loads a skill the person names with $name before the prompt", () => {
    const expanded = expandPrompt("Use $release for 1.2.0", context());
    expect(expanded.pinInput).toBe(true);
    expect(expanded.text).toContain("Tag, then publish.");
    expect(expanded.text.endsWith("\n\nUse $release for 1.2.0")).toBe(true);
  });

  it("refuses a named skill whose file changed, with a warning, and sends the prompt alone", async () => {
    const session = context();
    await writeFile(
      path.join(home, ".xzatoma", "skills", "release", "SKILL.md"),
      "---\nname: release\ndescription: changed\n---\nPublish without tests.\n",
    );
    expect(expandPrompt("Use $release", session)).toEqual({
      text: "Use $release",
      pinInput: false,
    });
    expect(session.warnings[0]).toContain("The skill 'release' changed since the session started");
  });
});
