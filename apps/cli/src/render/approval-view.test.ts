import type { ApprovalRequest } from "@xzatoma/core";
import { describe, expect, it } from "vitest";
import { formatApprovalRequest } from "./approval-view.js";

const SPOOF = "bash setup.sh #\r\x1b[2K? terminal wants to: ls -la ...\x1b[8m";

function terminalRequest(command: string): ApprovalRequest {
  return {
    toolCallId: "call-1",
    toolName: "terminal",
    access: "execute",
    input: { command, cwd: "." },
    verdict: "confirm",
    reason: "terminal commands need a yes",
    summary: `${command}  (in .)`,
  };
}

/** Characters that move the cursor, erase, restyle or reorder text on a terminal. */
function rawControls(text: string): string[] {
  return Array.from(text).filter((character) => {
    const code = character.codePointAt(0) ?? 0;
    return (
      (code < 0x20 && code !== 0x0a) ||
      (code >= 0x7f && code <= 0x9f) ||
      /\p{Cf}/u.test(character) ||
      code === 0x2028 ||
      code === 0x2029
    );
  });
}

describe("formatApprovalRequest", () => {
  it("shows a spoofing command as it is: the real command and every control as an escape", () => {
    const { text, shortened } = formatApprovalRequest(terminalRequest(SPOOF), { color: false });
    expect(rawControls(text)).toEqual([]);
    expect(text).toBe(
      "? terminal wants to: bash setup.sh #\\r\\x1b[2K? terminal wants to: ls -la ...\\x1b[8m  (in .)\n" +
        "  terminal commands need a yes\n",
    );
    expect(shortened).toBe(false);
  });

  it("numbers every line of a command of several lines and says how long it is", () => {
    const command = "echo one\nrm -rf build\n\u202eecho three\u202c\n";
    const { text } = formatApprovalRequest(terminalRequest(command), { color: false });
    expect(rawControls(text)).toEqual([]);
    expect(text).toBe(
      [
        "? terminal wants to (4 lines, 43 characters):",
        "  1 │ echo one",
        "  2 │ rm -rf build",
        "  3 │ \\u202eecho three\\u202c",
        "  4 │   (in .)",
        "  terminal commands need a yes",
        "",
      ].join("\n"),
    );
  });

  it("never shortens the summary, however long", () => {
    const command = Array.from({ length: 300 }, (_, index) => `echo ${index}`).join("\n");
    const { text, shortened } = formatApprovalRequest(terminalRequest(command), { color: false });
    expect(shortened).toBe(false);
    expect(text).toContain("(300 lines, ");
    expect(text).toContain("    1 │ echo 0\n");
    expect(text).toContain("  300 │ echo 299  (in .)\n");
  });

  it("shows tabs, unusual spaces and hidden characters in a command", () => {
    const { text } = formatApprovalRequest(terminalRequest("ls\t-la\u00a0x\u200by"), {
      color: false,
    });
    expect(text).toContain("wants to: ls\\t-la\\xa0x\\u200by  (in .)");
  });

  it("previews a file's new content, counts what it leaves out, and shows it all on request", () => {
    const content = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join("\n");
    const request: ApprovalRequest = {
      toolCallId: "call-2",
      toolName: "write_file",
      access: "write",
      input: { path: "notes/\u202etxt.sh", content },
      verdict: "confirm",
      reason: "overwrites the existing file notes/x",
      summary: "overwrite notes/\u202etxt.sh (10 bytes -> 230 bytes)",
    };
    const preview = formatApprovalRequest(request, { color: false });
    expect(rawControls(preview.text)).toEqual([]);
    expect(preview.text).toContain(
      "? write_file wants to: overwrite notes/\\u202etxt.sh (10 bytes -> 230 bytes)\n",
    );
    expect(preview.text).not.toContain("  path:");
    expect(preview.text).toContain("  content (30 lines, 230 characters):\n   1 │ line 1\n");
    expect(preview.text).toContain("  20 │ line 20\n");
    expect(preview.text).not.toContain("│ line 21");
    expect(preview.text).toContain("… 80 more characters from line 21 not shown; answer v");
    expect(preview.shortened).toBe(true);

    const whole = formatApprovalRequest(request, {
      color: false,
      previewLines: Infinity,
      previewCharacters: Infinity,
    });
    expect(whole.shortened).toBe(false);
    expect(whole.text).toContain("  30 │ line 30\n");
  });

  it("marks a long line it cuts, and counts the rest from that line", () => {
    const request: ApprovalRequest = {
      toolCallId: "call-4",
      toolName: "write_file",
      access: "write",
      input: { path: "min.js", content: "x".repeat(2500) },
      verdict: "confirm",
      reason: "overwrites the existing file min.js",
      summary: "overwrite min.js (1 byte -> 2500 bytes)",
    };
    const { text, shortened } = formatApprovalRequest(request, { color: false });
    expect(shortened).toBe(true);
    expect(text).toContain(`  content (1 line, 2500 characters):\n  1 │ ${"x".repeat(2000)}…\n`);
    expect(text).toContain("… 500 more characters from line 1 not shown; answer v");
  });

  it("shows every input field, escaped, when the tool gives no summary", () => {
    const request: ApprovalRequest = {
      toolCallId: "call-3",
      toolName: "fetch\x1b[2J",
      access: "network",
      input: { url: "https://example.com/\x1b]8;;x\x07", retries: 2 },
      verdict: "confirm",
      reason: "unusual port",
    };
    const { text } = formatApprovalRequest(request, { color: false });
    expect(rawControls(text)).toEqual([]);
    expect(text).toBe(
      [
        "? fetch\\x1b[2J wants to run with this input:",
        "  unusual port",
        "  url: https://example.com/\\x1b]8;;x\\x07",
        "  retries: 2",
        "",
      ].join("\n"),
    );
  });

  it("marks escapes in inverse video with colour, and adds no other escape sequence", () => {
    const { text } = formatApprovalRequest(terminalRequest("ls\rrm"), { color: true });
    expect(text).toContain("ls\x1b[7m\\r\x1b[27mrm");
    const withoutOwnStyling = ["2", "22", "7", "27"].reduce(
      (rest, code) => rest.replaceAll(`\x1b[${code}m`, ""),
      text,
    );
    expect(rawControls(withoutOwnStyling)).toEqual([]);
  });

  it("shows an overwrite as a diff of the file, not as its new content", () => {
    const before = "one\ntwo\nthree\n";
    const after = "one\n2\nthree\n";
    const { text, shortened } = formatApprovalRequest(
      {
        toolCallId: "1",
        toolName: "write_file",
        access: "write",
        input: { path: "n.txt", content: after },
        verdict: "allow",
        reason: "It overwrites the existing file n.txt.",
        summary: "overwrite n.txt (14 bytes -> 12 bytes)",
        change: { path: "n.txt", before, after },
      },
      { color: false },
    );
    expect(shortened).toBe(false);
    expect(text).toBe(
      [
        "? write_file wants to: overwrite n.txt (14 bytes -> 12 bytes)",
        "  It overwrites the existing file n.txt.",
        "  1 line removed, 1 line added in n.txt:",
        "  --- a/n.txt",
        "  +++ b/n.txt",
        "  @@ -1,3 +1,3 @@",
        "   one",
        "  -two",
        "  +2",
        "   three",
        "",
      ].join("\n"),
    );
  });

  it("offers v for a long diff and shows it whole then", () => {
    const after = Array.from({ length: 200 }, (_, index) => `line ${index}\n`).join("");
    const request = {
      toolCallId: "1",
      toolName: "write_file",
      access: "write" as const,
      input: { path: "n.txt", content: after },
      verdict: "allow" as const,
      reason: "It overwrites the existing file n.txt.",
      summary: "overwrite n.txt",
      change: { path: "n.txt", before: "x\n", after },
    };
    const short = formatApprovalRequest(request, { color: false });
    expect(short.shortened).toBe(true);
    expect(short.text).toContain("… 144 more diff lines not shown; answer v to view them all");
    const whole = formatApprovalRequest(request, {
      color: false,
      previewLines: Infinity,
      previewCharacters: Infinity,
    });
    expect(whole.shortened).toBe(false);
    expect(whole.text).toContain("+line 199");
  });
});
