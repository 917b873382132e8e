// The runtime tells the provider where the workspace is: a local model file planted in the
// workspace and named by provider.local.model_path stops the runtime before any model loads.
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentRuntime } from "./agent-runtime.js";
import { resolveRuntimeConfig } from "./resolve-config.js";

let base: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "xz-runtime-local-model-")));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("a local model file in the workspace", () => {
  it("is refused when the runtime starts", async () => {
    const workspace = await mkdtemp(path.join(base, "ws-"));
    const planted = path.join(workspace, "planted.gguf");
    await writeFile(planted, "GGUF and whatever the model wrote");
    const config = resolveRuntimeConfig(
      {
        provider: { type: "local", local: { model_path: planted } },
        agent: { terminal: { sandbox: false } },
        persistence: { data_dir: path.join(base, "data") },
      },
      { homeDir: base, env: {} },
    );
    await expect(
      createAgentRuntime(
        config,
        { warn: () => undefined },
        { workspace, modes: { chatMode: "write", approvalPolicy: "never" }, history: false },
      ),
    ).rejects.toThrow(/inside the workspace/);
  });
});
