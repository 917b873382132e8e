// `xzatoma chat` right after `bash tools/start.sh`: nothing is configured and no model
// server runs. With the embedded model installed in the data directory (as the setup does),
// chat runs it and says so; without it, chat names the way to a model. Both use the built
// CLI with a fresh home. Nothing may listen on Ollama's default port, 11434, on this machine.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.test-support.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

let base: string;
let workspace: string;

function ollamaPortAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port: 11434 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-first-run-")));
  workspace = path.join(base, "project");
  await mkdir(workspace, { recursive: true });
  // What these tests are about is a machine without a model server.
  expect(await ollamaPortAnswers(), "something listens on 127.0.0.1:11434").toBe(false);
}, 60_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("xzatoma chat after setup, with nothing configured", () => {
  it("runs the embedded model the setup installed, and says so", async () => {
    const home = path.join(base, "with-model");
    // The setup's model step: the default embedded model (Qwen2.5-Coder 1.5B, downloaded
    // once by tools/test.sh or here), verified and linked into the data directory's models/.
    execFileSync(
      "bash",
      [
        path.join(ROOT, "tools/models/fetch-model.sh"),
        "qwen2.5-coder-1.5b",
        "--install",
        path.join(home, ".xzatoma/models"),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const outcome = await runCli(["chat"], {
      cwd: workspace,
      env: { HOME: home, PATH: process.env["PATH"] ?? "" },
      input: "/status\n",
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain(
      "No model server is configured and none answers at http://localhost:11434, so this chat runs the embedded model",
    );
    expect(outcome.stdout).toContain(
      "runs the embedded model (qwen2.5-coder-1.5b-instruct-q4_k_m.gguf, in-process",
    );
    expect(outcome.stdout).toContain(
      `model: local: ${path.join(home, ".xzatoma/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")}`,
    );
  }, 600_000);

  it("names --provider local and the command that installs the embedded model when it is not installed", async () => {
    const home = path.join(base, "without-model");
    await mkdir(home, { recursive: true });
    const outcome = await runCli(["chat"], {
      cwd: workspace,
      env: { HOME: home, PATH: process.env["PATH"] ?? "" },
      input: "/status\n",
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain("none answers at http://localhost:11434");
    expect(outcome.stdout).toContain(
      `run the embedded model with --provider local (in a checkout of XZatoma, 'bash tools/models/fetch-model.sh qwen2.5-coder-1.5b --install ${path.join(home, ".xzatoma/models")}' or 'bash tools/start.sh' installs it)`,
    );
    expect(outcome.stdout).toContain("model: ollama: llama3.2:latest");
  }, 120_000);

  it("keeps a provider that was chosen, even when it does not answer", async () => {
    const home = path.join(base, "chosen");
    await mkdir(home, { recursive: true });
    const outcome = await runCli(["chat", "--provider", "ollama"], {
      cwd: workspace,
      env: { HOME: home, PATH: process.env["PATH"] ?? "" },
      input: "/status\n",
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).not.toContain("No model server is configured");
    expect(outcome.stdout).toContain("model: ollama: llama3.2:latest");
  }, 120_000);
});
