// @mentions hand file content to the model like the file tools do: a value the redactor
// finds is hidden, and the mention counts as secret exposure, whatever the file's name.
import { createSecretExposure } from "@xzatoma/safety";
import { createWorkspaceContext } from "@xzatoma/tools";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMentionLoader } from "./mention-loader.js";

const CANARY = "canary-Wm3kR8tY2vB6";
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "xzatoma-mention-secrets-"));
  await mkdir(path.join(root, "deploy"));
  await writeFile(
    path.join(root, "deploy", "settings.yaml"),
    `database:\n  user: app\n  password: ${CANARY}\n`,
  );
  await writeFile(path.join(root, "README.md"), "# Demo\nNothing to hide.\n");
});

afterEach(() => rm(root, { recursive: true, force: true }));

function loader() {
  const exposure = createSecretExposure();
  const mentions = createMentionLoader({
    pathGuard: createWorkspaceContext({ root }).pathGuard,
    exposure,
    confirmed: true,
  });
  return { exposure, mentions };
}

describe("mentions of content that holds a secret", () => {
  it("@file hides the value, says so, and records the exposure", async () => {
    const { exposure, mentions } = loader();
    const result = await mentions.load("Check @deploy/settings.yaml please");
    expect(result.prompt).not.toContain(CANARY);
    expect(result.prompt).toContain("  password: [REDACTED]");
    expect(result.prompt).toMatch(/XZatoma replaced 1 value that looks secret/);
    expect(result.loaded[0]?.detail).toMatch(/1 secret hidden/);
    expect(exposure.reasons).toEqual(["found a secret in @deploy/settings.yaml"]);
  });

  it("@search and @grep hide the value in matching lines", async () => {
    for (const text of ['@search:"password"', '@grep:"pass(word)?:"']) {
      const { exposure, mentions } = loader();
      const result = await mentions.load(text);
      expect(result.prompt).toContain("deploy/settings.yaml:3:");
      expect(result.prompt).not.toContain(CANARY);
      expect(exposure.exposed).toBe(true);
    }
  });

  it("a file without secrets loads as it is and exposes nothing", async () => {
    const { exposure, mentions } = loader();
    const result = await mentions.load("Summarise @README.md");
    expect(result.prompt).toContain("Nothing to hide.");
    expect(result.prompt).not.toContain("REDACTED");
    expect(exposure.exposed).toBe(false);
  });
});
