// A GGUF model file is parsed by native code and carries a chat template that is run, so the
// local provider never loads one from the workspace, whose files the model can write: a
// model file planted there, named by provider.local.model_path, is refused before anything
// reads it. The same file outside the workspace passes this check.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createProvider } from "../provider.js";
import { providerConfigSchema } from "../provider-config.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let base: string;
let workspace: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "xz-local-model-")));
  workspace = path.join(base, "project");
  await mkdir(path.join(workspace, "models"), { recursive: true });
  await mkdir(path.join(base, "data", "models"), { recursive: true });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function localProvider(modelPath: string) {
  return createProvider(
    providerConfigSchema.parse({ type: "local", local: { model_path: modelPath } }),
    { maxContextTokens: 4096, dataDir: path.join(base, "data"), workspace, env: {} },
  );
}

describe("the local provider", () => {
  it("refuses a model file inside the workspace", async () => {
    const planted = path.join(workspace, "models", "planted.gguf");
    await writeFile(planted, "GGUF and whatever the model wrote");
    const provider = localProvider(planted);
    expect(() => provider.languageModel(provider.defaultModel)).toThrow(/inside the workspace/);
    await expect(provider.checkModel(planted)).rejects.toThrow(/inside the workspace/);
  });

  it("refuses a link from outside to a file inside the workspace", async () => {
    const planted = path.join(workspace, "planted.gguf");
    await writeFile(planted, "GGUF");
    const { symlink } = await import("node:fs/promises");
    const link = path.join(base, "data", "models", "linked.gguf");
    await symlink(planted, link);
    expect(() => localProvider(link).languageModel(link)).toThrow(/inside the workspace/);
  });

  it("does not refuse a model file outside the workspace on these grounds", async () => {
    const outside = path.join(base, "data", "models", "model.gguf");
    await writeFile(outside, "GGUF");
    const provider = localProvider(outside);
    let message = "";
    try {
      provider.languageModel(provider.defaultModel);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toMatch(/inside the workspace/);
  });
});
