import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAuditLog, formatAuditEntry } from "./audit-log.js";
import { fakeSecrets } from "@xzatoma/redaction/testing";
import { redactSecrets } from "@xzatoma/redaction";

let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "xz-audit-"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("audit log", () => {
  it("formats commands in the seeds' format", () => {
    const line = formatAuditEntry(
      {
        kind: "command",
        workingDirectory: "/home/user/project",
        command: "ls -la",
        exitCode: 0,
        durationMs: 23,
        sandboxed: false,
      },
      new Date("2025-01-15T10:30:45.123Z"),
    );
    expect(line).toBe("2025-01-15T10:30:45Z | /home/user/project | ls -la | exit:0 | 0.023s");
  });

  it("appends one line per entry, creates the file private, and forges no lines from newlines", async () => {
    const log = createAuditLog({ path: path.join(base, "nested", "audit.log") });
    log.record({
      kind: "command",
      workingDirectory: "/w",
      command: "echo a\n2025 | /w | fake | exit:0",
      exitCode: 0,
      durationMs: 1,
      sandboxed: true,
    });
    log.record({
      kind: "decision",
      workingDirectory: "/w",
      toolName: "terminal",
      subject: "rm -rf /",
      decision: "block",
      approved: false,
      reason: "destroys the disk",
    });
    const lines = (await readFile(log.path, "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      / \| \/w \| echo a\\n2025 \\\| \/w \\\| fake \\\| exit:0 \| exit:0 \| 0\.001s \| sandbox$/,
    );
    expect(lines[1]).toMatch(
      / \| terminal: rm -rf \/ \| decision:block approved:false \| destroys the disk$/,
    );
    expect((await stat(log.path)).mode & 0o777).toBe(0o600);
  });

  it("creates its missing directories 0700 and the file 0600", async () => {
    const log = createAuditLog({ path: path.join(base, "data", "nested", "audit.log") });
    log.record({
      kind: "command",
      workingDirectory: "/w",
      command: "ls",
      exitCode: 0,
      durationMs: 1,
      sandboxed: true,
    });
    expect((await stat(path.join(base, "data"))).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(base, "data", "nested"))).mode & 0o777).toBe(0o700);
    expect((await stat(log.path)).mode & 0o777).toBe(0o600);
  });

  it("never writes a secret", async () => {
    const log = createAuditLog({ path: path.join(base, "audit.log") });
    const secrets = [
      "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "sk-proj-abcdefghijklmnopqrstuv",
      "hunter2hunter2",
    ];
    log.record({
      kind: "command",
      workingDirectory: "/w",
      command: `curl -H "Authorization: Bearer ${secrets[0]}" https://bob:${secrets[2]}@api.example/ && OPENAI_API_KEY=${secrets[1]} run`,
      exitCode: 1,
      durationMs: 5,
      sandboxed: false,
    });
    const text = await readFile(log.path, "utf8");
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).toContain("[REDACTED]");
  });

  it("writes none of the fake-secret corpus, in any field", async () => {
    const log = createAuditLog({ path: path.join(base, "corpus.log") });
    const corpus = fakeSecrets();
    for (const entry of corpus) {
      log.record({
        kind: "command",
        workingDirectory: `/w/${entry.text}`,
        command: entry.text,
        exitCode: 0,
        durationMs: 1,
        sandboxed: true,
      });
      log.record({
        kind: "decision",
        workingDirectory: "/w",
        toolName: "fetch",
        subject: entry.text,
        decision: "confirm",
        approved: true,
        reason: `asked about ${entry.text}`,
      });
    }
    const text = await readFile(log.path, "utf8");
    expect(text.trimEnd().split("\n")).toHaveLength(corpus.length * 2);
    for (const secret of corpus.flatMap((entry) => entry.secrets))
      expect(text).not.toContain(secret);
  });

  it("leaves ordinary text alone", () => {
    expect(redactSecrets("grep -rn token src/ && ls -la")).toBe("grep -rn token src/ && ls -la");
  });
});
