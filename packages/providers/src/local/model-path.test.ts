// The default embedded model's file, the command that installs it, and what a user is told
// when it is missing. The setup's download script is asked, offline (`--list` downloads
// nothing), which file it fetches for the default's name, so the two cannot drift apart.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_LOCAL_MODEL_FILE,
  DEFAULT_LOCAL_MODEL_NAME,
  defaultLocalModelFetchCommand,
  defaultLocalModelPath,
  missingDefaultLocalModelMessage,
  resolveLocalModelPath,
} from "./index.js";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

describe("the default embedded model", () => {
  it("is Qwen2.5-Coder-1.5B-Instruct Q4_K_M, the file fetch-model.sh downloads under its name", () => {
    expect(DEFAULT_LOCAL_MODEL_FILE).toBe("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf");
    expect(DEFAULT_LOCAL_MODEL_NAME).toBe("qwen2.5-coder-1.5b");
    const listed = execFileSync(
      "bash",
      [path.join(ROOT, "tools/models/fetch-model.sh"), "--list"],
      {
        encoding: "utf8",
      },
    );
    const row = listed
      .trim()
      .split("\n")
      .map((line) => line.split("\t"))
      .find(([name]) => name === DEFAULT_LOCAL_MODEL_NAME);
    expect(row, listed).toEqual([
      DEFAULT_LOCAL_MODEL_NAME,
      DEFAULT_LOCAL_MODEL_FILE,
      "1117320768 bytes",
    ]);
  });

  it("is looked for in <data dir>/models unless provider.local.model_path is set", () => {
    const dataDir = path.join(path.sep, "home", "ada", ".xzatoma");
    const expected = path.join(dataDir, "models", "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf");
    expect(defaultLocalModelPath(dataDir)).toBe(expected);
    expect(resolveLocalModelPath(undefined, dataDir)).toEqual({
      path: expected,
      configured: false,
    });
    expect(resolveLocalModelPath("  ", dataDir)).toEqual({ path: expected, configured: false });
    expect(resolveLocalModelPath("small.gguf", dataDir, path.join(path.sep, "work"))).toEqual({
      path: path.join(path.sep, "work", "small.gguf"),
      configured: true,
    });
  });

  it("when missing, is named with the command that downloads and installs it", () => {
    const file = path.join(path.sep, "home", "ada", ".xzatoma", "models", DEFAULT_LOCAL_MODEL_FILE);
    expect(missingDefaultLocalModelMessage(file)).toBe(
      `No model file at ${file}. provider.local.model_path is not set, so the local provider runs the embedded model qwen2.5-coder-1.5b-instruct-q4_k_m.gguf from the data directory's models folder. Download and install it (1.1 GB, once) from a checkout of XZatoma with 'bash tools/models/fetch-model.sh qwen2.5-coder-1.5b --install /home/ada/.xzatoma/models' (bash tools/start.sh does it too), or point provider.local.model_path or --model at another GGUF file.`,
    );
  });

  it("names a models folder with spaces or quotes so that a shell passes it as one word", () => {
    for (const dir of ["/home/a b/.xzatoma/models", "/home/o'hara/$HOME/models"]) {
      const command = defaultLocalModelFetchCommand(dir);
      expect(
        command.startsWith("bash tools/models/fetch-model.sh qwen2.5-coder-1.5b --install "),
      ).toBe(true);
      // The same words, given to printf instead of the script: one line per word.
      const words = execFileSync(
        "bash",
        ["-c", command.replace(/^bash tools\/models\/fetch-model\.sh/, "printf '%s\\n'")],
        { encoding: "utf8" },
      );
      expect(words).toBe(`qwen2.5-coder-1.5b\n--install\n${dir}\n`);
    }
  });
});
