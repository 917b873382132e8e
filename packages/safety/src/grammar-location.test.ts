// The command policy's bash grammar (tree-sitter-bash.wasm) and its runtime (web-tree-sitter)
// are loaded from beside XZatoma's own code, never from the working directory: a workspace
// that plants both, with a runtime whose import would create a marker, changes nothing. The
// policy runs in a child process whose working directory is that workspace.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SAFETY = pathToFileURL(fileURLToPath(new URL("../dist/index.js", import.meta.url))).href;

let workspace: string;
let marker: string;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(path.join(tmpdir(), "xz-grammar-")));
  marker = path.join(workspace, "..", `${path.basename(workspace)}-planted-ran`);
  const runtime = path.join(workspace, "node_modules", "web-tree-sitter");
  await mkdir(runtime, { recursive: true });
  await writeFile(
    path.join(runtime, "package.json"),
    JSON.stringify({ name: "web-tree-sitter", type: "module", main: "index.js" }),
  );
  await writeFile(
    path.join(runtime, "index.js"),
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "x");\nexport const Parser = {};\n`,
  );
  const grammar = path.join(workspace, "node_modules", "tree-sitter-bash");
  await mkdir(grammar, { recursive: true });
  await writeFile(path.join(grammar, "package.json"), JSON.stringify({ name: "tree-sitter-bash" }));
  // Not a grammar: loading it would fail every judgement.
  await writeFile(path.join(grammar, "tree-sitter-bash.wasm"), "not wasm");
  await writeFile(path.join(workspace, "tree-sitter-bash.wasm"), "not wasm");
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(marker, { force: true });
});

describe("the bash grammar", () => {
  it("is XZatoma's own, whatever the working directory holds", () => {
    const script = [
      `const { createCommandPolicy, createPathGuard } = await import(${JSON.stringify(SAFETY)});`,
      "const policy = await createCommandPolicy({ pathGuard: createPathGuard({ root: process.cwd() }) });",
      'const decision = await policy.check("ls -la && git status");',
      "process.stdout.write(decision.outcome);",
    ].join("\n");
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: workspace,
      encoding: "utf8",
      env: { PATH: process.env["PATH"] ?? "", NODE_PATH: path.join(workspace, "node_modules") },
    });
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("direct");
    expect(existsSync(marker)).toBe(false);
  });
});
