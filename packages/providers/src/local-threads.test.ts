// `provider.local.threads` reaches the embedded model, and a value that is not a thread
// count is refused naming the key.
import { afterAll, describe, expect, it, vi } from "vitest";
import type * as Local from "./local/index.js";

const created: unknown[] = [];
vi.mock("./local/index.js", async (original) => {
  const actual = await original<typeof Local>();
  return {
    ...actual,
    createLocalModel: (options: unknown) => {
      created.push(options);
      return actual.createLocalModel(options as Parameters<typeof actual.createLocalModel>[0]);
    },
  };
});

const { createProvider } = await import("./provider.js");
const { providerConfigSchema } = await import("./provider-config.js");
const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const path = await import("node:path");

describe("provider.local.threads", () => {
  const directory = mkdtempSync(path.join(tmpdir(), "xz-local-threads-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("is given to the embedded model, and left to its default when not set", () => {
    const file = path.join(directory, "tiny.gguf");
    writeFileSync(file, Buffer.concat([Buffer.from("GGUF"), Buffer.alloc(60)]));
    const settings = { maxContextTokens: 4096, dataDir: directory, env: {} };
    for (const local of [{ model_path: file, threads: 3 }, { model_path: file }]) {
      const provider = createProvider(
        providerConfigSchema.parse({ type: "local", local }),
        settings,
      );
      provider.languageModel(provider.defaultModel);
    }
    expect(created).toEqual([{ modelPath: file, threads: 3 }, { modelPath: file }]);
  });

  it("refuses a value that is not a whole number of threads, naming the key", () => {
    for (const threads of [0, 1.5, "2", 513]) {
      const parsed = providerConfigSchema.safeParse({ type: "local", local: { threads } });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(["local", "threads"]);
    }
  });
});
