// The trust model as a hostile model meets it through the file tools: every call goes
// through a real registry whose approval handler says yes to everything but is not a
// person, the way full autonomous mode answers.
import { link, lstat, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { createToolRegistry } from "@xzatoma/core";
import { checkUrl, createSecretExposure } from "@xzatoma/safety";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "./file-tools.test-support.js";
import { createBuiltinTools } from "./builtin-tools.js";
import { assessFetch } from "./fetch/fetch-tool.js";
import { createWorkspaceContext } from "./workspace-context.js";

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await createTestWorkspace();
  await mkdir(ws.at(".git/hooks"), { recursive: true });
  await writeFile(ws.at(".git/config"), "[core]\n");
  await writeFile(ws.at(".git/HEAD"), "ref: refs/heads/main\n");
});

afterEach(async () => {
  await ws.cleanup();
});

async function exists(relative: string): Promise<boolean> {
  try {
    await lstat(ws.at(relative));
    return true;
  } catch {
    return false;
  }
}

describe("git internals are never written by a file tool", () => {
  it("refuses the fsmonitor chain: a planted repository and a commondir pointing at it", async () => {
    expect((await ws.call("create_directory", { path: "build/cache/objects" })).success).toBe(true);
    expect((await ws.call("create_directory", { path: "build/cache/refs" })).success).toBe(true);
    await ws.call("write_file", {
      path: "build/cache/config",
      content: '[core]\n\tfsmonitor = "touch /tmp/pwned"\n',
    });
    const head = await ws.call("write_file", { path: "build/cache/HEAD", content: "ref: x\n" });
    expect(head.error).toContain("shaped like a git repository");
    const commondir = await ws.call("write_file", {
      path: ".git/commondir",
      content: "../build/cache\n",
    });
    expect(commondir.error).toContain("it is under .git/, and version-control internals");
    expect(await exists("build/cache/HEAD")).toBe(false);
    expect(await exists(".git/commondir")).toBe(false);
  });

  it.each([
    [".Git/hooks/pre-commit"],
    [".git/config.worktree"],
    [".git/modules/lib/config"],
    ["sub/.git/config"],
    ["sub/.git"],
  ])("refuses %s in every spelling and at any depth", async (target) => {
    const result = await ws.call("write_file", { path: target, content: "x" });
    expect(result.success).toBe(false);
    expect(result.metadata["refused"]).toBe(true);
    expect(ws.approvals).toEqual([]);
  });

  it("refuses to move or delete .git, or to copy a tree over it", async () => {
    expect((await ws.call("move_path", { source: ".git", destination: "g2" })).success).toBe(false);
    expect((await ws.call("delete_path", { path: ".git", recursive: true })).success).toBe(false);
    expect(await readFile(ws.at(".git/config"), "utf8")).toBe("[core]\n");
  });
});

describe("files that run code need a person's yes, in every mode", () => {
  it.each([
    ["AGENTS.md"],
    [".envrc"],
    [".ENVRC"],
    ["sub/.envrc"],
    [".vscode/tasks.json"],
    [".claude/settings.json"],
    [".mcp.json"],
    [".npmrc"],
  ])("%s is not written on an approval that is not a person's", async (target) => {
    const result = await ws.call("write_file", { path: target, content: "echo pwned\n" });
    expect(ws.approvals).toMatchObject([{ verdict: "confirm", requiresPerson: true }]);
    expect(result.error).toContain("only a person's explicit yes can allow it, and none was given");
    expect(await exists(target)).toBe(false);
  });

  it("writes AGENTS.md when a person says yes", async () => {
    const workspace = createWorkspaceContext({ root: ws.root });
    const registry = createToolRegistry();
    const { createFileTools } = await import("./file-tools.js");
    for (const tool of createFileTools(workspace)) registry.register(tool);
    const result = await registry.execute(
      { toolCallId: "1", toolName: "write_file", input: '{"path":"AGENTS.md","content":"hi"}' },
      { signal: new AbortController().signal, approve: () => ({ approved: true, byPerson: true }) },
    );
    expect(result.success).toBe(true);
    expect(await readFile(ws.at("AGENTS.md"), "utf8")).toBe("hi");
  });
});

describe("links never lead out of the workspace from their new place", () => {
  it("refuses to move a link that points inside where it is and at / where it lands", async () => {
    await mkdir(ws.at("a/b/c/d/e"), { recursive: true });
    await symlink("../../../../..", ws.at("a/b/c/d/e/up"));
    await mkdir(ws.at("sub"));
    const result = await ws.call("move_path", { source: "a/b/c/d/e/up", destination: "sub/up" });
    expect(result.error).toContain("pointing outside the workspace from its new place");
    expect(await exists("sub/up")).toBe(false);
  });

  it("refuses to move a directory that carries such a link", async () => {
    await mkdir(ws.at("a/b/c"), { recursive: true });
    await symlink("../../..", ws.at("a/b/c/up"));
    const result = await ws.call("move_path", { source: "a/b/c", destination: "c" });
    expect(result.success).toBe(false);
    expect(await exists("a/b/c/up")).toBe(true);
  });

  it("copies skip a link whose .. climbs through another link", async () => {
    await mkdir(ws.at("sub"));
    await symlink(ws.outside, ws.at("sub/out"));
    await symlink("out/..", ws.at("sub/sneaky"));
    const result = await ws.call("copy_path", { source: "sub/sneaky", destination: "copy" });
    expect(`${result.output}${result.error ?? ""}`).toMatch(/Skipped 1 symlink|outside/);
    expect(await exists("copy")).toBe(false);
  });
});

describe("secrets need a yes to be read", () => {
  const read = async (input: Record<string, unknown>) => {
    const workspace = createWorkspaceContext({ root: ws.root });
    const registry = createToolRegistry();
    for (const tool of createBuiltinTools(workspace)) registry.register(tool);
    const asked: string[] = [];
    const result = await registry.execute(
      { toolCallId: "1", toolName: String(input["tool"]), input: JSON.stringify(input["args"]) },
      {
        signal: new AbortController().signal,
        approve: (request) => (asked.push(request.reason), { approved: false, reason: "no" }),
      },
    );
    return { result, asked, workspace };
  };

  it.each([[".env"], [".aws/credentials"], ["config/prod.env"], [".ssh/id_ed25519"]])(
    "read_file %s asks first and returns nothing when refused",
    async (target) => {
      await ws.write(target, "API_KEY=sk-live-1234567890abcdef\n");
      const { result, asked } = await read({ tool: "read_file", args: { path: target } });
      expect(asked[0]).toContain("looks like it holds secrets");
      expect(JSON.stringify(result)).not.toContain("sk-live-1234567890abcdef");
    },
  );

  it("read_file of a hard link to a file outside asks first", async () => {
    await link(path.join(ws.outside, "secret.txt"), ws.at("hl.txt"));
    const { result, asked } = await read({ tool: "read_file", args: { path: "hl.txt" } });
    expect(asked[0]).toContain("hard links");
    expect(JSON.stringify(result)).not.toContain("top secret");
  });

  it("grep over the workspace does not search secret-looking or hard-linked files", async () => {
    await ws.write(".env", "TOKEN=needle-in-env\n");
    await ws.write("notes.txt", "needle in notes\n");
    await link(path.join(ws.outside, "secret.txt"), ws.at("hl.txt"));
    await writeFile(path.join(ws.outside, "secret.txt"), "needle top secret\n");
    const { result, asked } = await read({ tool: "grep", args: { pattern: "needle", path: "." } });
    expect(asked).toEqual([]);
    expect(result.output).toContain("notes.txt");
    expect(result.output).not.toContain("needle-in-env");
    expect(result.output).not.toContain("top secret");
    expect(result.output).toContain("Not searched, because they look like they hold secrets: .env");
    expect(result.output).toContain("1 hard-linked file");
  });

  it("a copy that would rename a secret asks first", async () => {
    await ws.write(".env", "TOKEN=x\n");
    expect(
      await ws.assess("copy_path", { source: ".env", destination: "notes.txt" }),
    ).toMatchObject({
      verdict: "confirm",
    });
  });
});

describe("a secret never leaves on the model's word", () => {
  const fetcher = (allowHosts: string[] = []) => ({
    check: (url: string) => checkUrl(url, { allowHosts }),
  });

  it("fetch needs nobody's yes before anything secret was read", () => {
    const exposure = createSecretExposure();
    expect(assessFetch("https://any.example/?d=x", fetcher(), exposure)).toMatchObject({
      verdict: "allow",
    });
  });

  it("after a secret was read, a fetch to a host the user has not allowed needs a person", async () => {
    await ws.write(".env", "TOKEN=abc\n");
    const workspace = createWorkspaceContext({ root: ws.root });
    const registry = createToolRegistry();
    for (const tool of createBuiltinTools(workspace)) registry.register(tool);
    await registry.execute(
      { toolCallId: "1", toolName: "read_file", input: '{"path":".env"}' },
      { signal: new AbortController().signal, approve: () => ({ approved: true, byPerson: true }) },
    );
    expect(workspace.exposure.reasons).toEqual(["read .env", "found a secret in .env"]);
    expect(assessFetch("https://any.example/?d=abc", fetcher(), workspace.exposure)).toMatchObject({
      verdict: "confirm",
      requiresPerson: true,
    });
    expect(
      assessFetch("https://intranet.example/x", fetcher(["intranet.example"]), workspace.exposure),
    ).toMatchObject({ verdict: "allow" });
  });
});
