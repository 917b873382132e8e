// What the file-reading tools hand the model when a file holds a secret, whatever its
// name: the value is hidden, the read counts as secret exposure, and a later request to a
// host the user has not allowed needs a person.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolRegistry, type ApprovalRequest, type ToolResult } from "@xzatoma/core";
import { checkUrl } from "@xzatoma/safety";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "./builtin-tools.js";
import { createFileTools } from "./file-tools.js";
import { assessFetch } from "./fetch/fetch-tool.js";
import { createWorkspaceContext, type WorkspaceContext } from "./workspace-context.js";

const CANARY = "canary-Qm7vX2pL9sK4";
const CLEAN = "# Settings\n\nretries: 3\nregion: eu-west-1\n";

let base: string;
let workspace: WorkspaceContext;
let approvals: ApprovalRequest[];
let call: (name: string, input: Record<string, unknown>) => Promise<ToolResult>;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-secret-content-")));
  await mkdir(path.join(base, "deploy"), { recursive: true });
  await mkdir(path.join(base, ".git"), { recursive: true });
  await writeFile(
    path.join(base, "deploy", "settings.yaml"),
    `database:\n  host: db.internal\n  user: app\n  password: ${CANARY}\n`,
  );
  await writeFile(path.join(base, "deploy", "staging.yaml"), "database:\n  host: db.staging\n");
  await writeFile(path.join(base, "notes.md"), CLEAN);
  await writeFile(
    path.join(base, ".git", "config"),
    `[remote "origin"]\n\turl = https://x-access-token:${CANARY}@git.example.org/team/app.git\n`,
  );
  workspace = createWorkspaceContext({ root: base });
  const registry = createToolRegistry();
  const builtin = createBuiltinTools(workspace);
  const names = new Set(builtin.map((tool) => tool.name));
  for (const tool of [...builtin, ...createFileTools(workspace).filter((t) => !names.has(t.name))])
    registry.register(tool);
  approvals = [];
  let calls = 0;
  call = (name, input) =>
    registry.execute(
      { toolCallId: String(++calls), toolName: name, input: JSON.stringify(input) },
      {
        signal: new AbortController().signal,
        approve: (request) => {
          approvals.push(request);
          return Promise.resolve({ approved: true, byPerson: true });
        },
      },
    );
});

afterEach(() => rm(base, { recursive: true, force: true }));

const fetchAssessment = () =>
  assessFetch(
    "https://collector.example/?d=x",
    { check: (url: string) => checkUrl(url, { allowHosts: [] }) },
    workspace.exposure,
  );

describe("a file that holds a secret, whatever its name", () => {
  it("read_file runs unasked, hides the value with a note, and counts as exposure", async () => {
    const result = await call("read_file", { path: "deploy/settings.yaml" });
    expect(approvals).toEqual([]);
    expect(result.success).toBe(true);
    expect(result.output).not.toContain(CANARY);
    expect(result.output).toContain("  password: [REDACTED]\n");
    expect(result.output).toContain("host: db.internal");
    expect(result.output).toMatch(/XZatoma replaced 1 value that looks secret with \[REDACTED\]/);
    expect(result.metadata).toMatchObject({ secretsHidden: 1 });
    expect(workspace.exposure.reasons).toEqual(["found a secret in deploy/settings.yaml"]);
    expect(fetchAssessment()).toMatchObject({ verdict: "confirm", requiresPerson: true });
  });

  it("a line range holding the secret is hidden too", async () => {
    const result = await call("read_file", { path: "deploy/settings.yaml", start_line: 4 });
    expect(result.output).not.toContain(CANARY);
    expect(workspace.exposure.exposed).toBe(true);
  });

  it("grep over the workspace hides matching lines' secrets and counts as exposure", async () => {
    const result = await call("grep", { pattern: "password", path: "." });
    expect(result.output).toContain("deploy/settings.yaml:4:   password: [REDACTED]");
    expect(result.output).not.toContain(CANARY);
    expect(workspace.exposure.reasons).toEqual(["found a secret in the grep results in ."]);
  });

  it("diff_files hides the secret in the diff", async () => {
    const result = await call("diff_files", {
      path_a: "deploy/staging.yaml",
      path_b: "deploy/settings.yaml",
    });
    expect(result.output).toContain("+  password: [REDACTED]");
    expect(result.output).not.toContain(CANARY);
    expect(workspace.exposure.exposed).toBe(true);
  });

  it("edit_file's diff hides it, and the file keeps the real value", async () => {
    const result = await call("edit_file", {
      path: "deploy/settings.yaml",
      mode: "edit",
      old_text: "host: db.internal",
      content: "host: db.internal.example",
    });
    expect(result.success, result.error).toBe(true);
    expect(result.output).not.toContain(CANARY);
    const onDisk = await readFile(path.join(base, "deploy", "settings.yaml"), "utf8");
    expect(onDisk).toContain(`password: ${CANARY}`);
  });

  it("keeps line numbers when a secret spans lines: a range after a private key is the right one", async () => {
    const key = [
      "-----BEGIN RSA PRIVATE KEY-----",
      "MIIEowIBAAKCAQEAv7QzJx8k2mN4pX7Zq8vR2mN4pX7Zq8vR2mN4pX7Zq8vR2mN4",
      "pX7Zq8vR2mN4pX7Zq8vR2mN4pX7Zq8vR2mN4pX7Zq8vR2mN4pX7Zq8vR2mN4pX7Z",
      "-----END RSA PRIVATE KEY-----",
    ];
    await writeFile(
      path.join(base, "deploy", "bundle.txt"),
      ["intro", ...key, "line six", "line seven"].join("\n"),
    );
    const whole = await call("read_file", { path: "deploy/bundle.txt" });
    expect(whole.output).not.toContain("MIIEowIBAAKCAQEAv7Qz");
    expect(whole.output.split("\n").slice(0, 7)).toEqual([
      "intro",
      key[0],
      "[REDACTED]",
      "[REDACTED]",
      key[3],
      "line six",
      "line seven",
    ]);
    const range = await call("read_file", {
      path: "deploy/bundle.txt",
      start_line: 6,
      end_line: 6,
    });
    expect(range.output.split("\n")[0]).toBe("line six");
  });

  it("a file without secrets is returned as it is and exposes nothing", async () => {
    const result = await call("read_file", { path: "notes.md" });
    expect(result.output).toBe(CLEAN);
    expect(result.metadata).not.toHaveProperty("secretsHidden");
    expect(workspace.exposure.exposed).toBe(false);
    expect(fetchAssessment()).toMatchObject({ verdict: "allow" });
  });
});

describe("plan", () => {
  it("hides a secret a plan file carries and counts it as exposure", async () => {
    await writeFile(
      path.join(base, "deploy", "release.yaml"),
      `name: release\nsteps:\n  - name: Tag\n    action: Log in with password=${CANARY} and tag the release\n`,
    );
    const result = await call("plan", { path: "deploy/release.yaml" });
    expect(result.success, result.error).toBe(true);
    expect(result.output).not.toContain(CANARY);
    expect(result.output).toContain("password=[REDACTED]");
    expect(workspace.exposure.reasons).toEqual(["found a secret in deploy/release.yaml"]);
  });

  it("needs a person's yes for a secret-looking plan file", async () => {
    await writeFile(path.join(base, ".env"), `TOKEN=${CANARY}\n`);
    await call("plan", { path: ".env" });
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ requiresPerson: true });
    expect(workspace.exposure.reasons).toContain("read .env");
  });
});

describe(".git/config", () => {
  it("needs a person's yes to read, and even then the token stays hidden", async () => {
    const result = await call("read_file", { path: ".git/config" });
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ requiresPerson: true });
    expect(result.output).toContain("url = https://x-access-token:[REDACTED]@git.example.org");
    expect(result.output).not.toContain(CANARY);
    expect(workspace.exposure.reasons).toContain("read .git/config");
    expect(fetchAssessment()).toMatchObject({ verdict: "confirm", requiresPerson: true });
  });
});
