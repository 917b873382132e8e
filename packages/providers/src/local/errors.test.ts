import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Agent, isXzatomaError } from "@xzatoma/core";
import { afterAll, describe, expect, it } from "vitest";
import { createLocalModel, loadLocalModel, LocalModelUnavailableError } from "./index.js";

const dir = mkdtempSync(path.join(tmpdir(), "xzatoma-local-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file that passes the GGUF magic check without being a model. */
function fakeGguf(): string {
  const file = path.join(dir, "fake.gguf");
  // Magic and version 3, then zeros where the tensor and metadata counts would be.
  writeFileSync(
    file,
    Buffer.concat([Buffer.from("GGUF"), Buffer.from([3, 0, 0, 0]), Buffer.alloc(56)]),
  );
  return file;
}

function caught(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("local model errors", () => {
  it("names a missing model file", () => {
    const modelPath = path.join(dir, "nowhere", "model.gguf");
    const error = caught(() => createLocalModel({ modelPath }));
    expect(error).toBeInstanceOf(LocalModelUnavailableError);
    expect(error).toMatchObject({
      code: "PROVIDER_UNAVAILABLE",
      reason: "model-missing",
      name: "LocalModelUnavailableError",
    });
    expect((error as Error).message).toContain(`No model file at ${modelPath}.`);
    expect(isXzatomaError(error)).toBe(true);
  });

  it("refuses a file that is not GGUF", () => {
    const modelPath = path.join(dir, "notes.gguf");
    writeFileSync(modelPath, "hello, I am not a model");
    const error = caught(() => createLocalModel({ modelPath }));
    expect(error).toMatchObject({ reason: "model-invalid" });
    expect((error as Error).message).toBe(
      `${modelPath} is not a GGUF model file (it does not start with 'GGUF'). The local provider runs GGUF models only.`,
    );
    expect(caught(() => createLocalModel({ modelPath: dir }))).toMatchObject({
      reason: "model-invalid",
    });
  });

  it("tells how to install node-llama-cpp when it is missing", async () => {
    const options = { modelPath: fakeGguf(), runtimeModule: "node-llama-cpp-is-not-installed" };
    const failure = loadLocalModel(options);
    await expect(failure).rejects.toBeInstanceOf(LocalModelUnavailableError);
    await expect(failure).rejects.toMatchObject({
      code: "PROVIDER_UNAVAILABLE",
      reason: "runtime-missing",
      message:
        "The local provider needs the optional package 'node-llama-cpp', which is not installed (cannot import 'node-llama-cpp-is-not-installed'). Install it next to XZatoma with 'npm install node-llama-cpp'.",
    });

    // In an agent run the same error ends the run with its code and message.
    const result = await new Agent({ model: createLocalModel(options) }).run("hi");
    expect(result.stopReason).toBe("error");
    expect(result.error?.code).toBe("PROVIDER_UNAVAILABLE");
    expect(result.error?.message).toContain("npm install node-llama-cpp");
  });

  it("treats a missing module path the same way", async () => {
    const runtimeModule = path.join(dir, "missing", "node-llama-cpp.js");
    await expect(loadLocalModel({ modelPath: fakeGguf(), runtimeModule })).rejects.toMatchObject({
      reason: "runtime-missing",
      message: expect.stringContaining(runtimeModule),
    });
  });

  it("rejects nonsensical sizes", () => {
    const modelPath = fakeGguf();
    expect(caught(() => createLocalModel({ modelPath, contextSize: 0 }))).toMatchObject({
      code: "INVALID_ARGUMENT",
      message: "The local model's contextSize must be a positive integer.",
    });
    expect(caught(() => createLocalModel({ modelPath, maxTokens: 1.5 }))).toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});

describe("local model errors with the runtime installed", () => {
  it("names a GGUF file llama.cpp cannot load", async () => {
    const modelPath = fakeGguf();
    await expect(loadLocalModel({ modelPath })).rejects.toMatchObject({
      reason: "model-invalid",
      message: expect.stringContaining(`llama.cpp cannot load the model ${modelPath}:`),
    });
  });
});
