// Sandbox-first execution in chat, in a real terminal: `xzatoma chat` with its default
// approval policy (on-escalation) runs inside tmux against the scripted Ollama server.
// A command that runs in the sandbox runs without a question; a command that escalates
// (it needs the network) asks, and the question shows the command and why it escalates.
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChatInTmux } from "./chat-terminal.test-support.js";
import { killSession, terminalSession } from "./terminal.test-support.js";
import { makeTestDirectories } from "./workspace.test-support.js";
const SESSION = `xz-sandbox-first-chat-${String(process.pid)}`;
/** Generous: the sandbox's first command and `npm test` on a loaded machine. */
const WAIT_MS = 90_000;
/** Hooks and tests wait a little longer than one screen, so the screen is what fails. */
const TEST_TIMEOUT_MS = 2 * WAIT_MS;
const QUESTION = "[a]pprove, [e]dit, [r]eject?";

function scenario(request: OllamaChatRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { content: `Tool said: ${last.content.split("\n")[0] ?? ""}` };
  const text = request.messages.findLast((message) => message.role === "user")?.content ?? "";
  if (text.startsWith("run the tests"))
    return { toolCalls: [{ name: "terminal", arguments: { command: "npm test" } }] };
  if (text.startsWith("fetch the page"))
    return {
      toolCalls: [{ name: "terminal", arguments: { command: "curl https://example.invalid/x" } }],
    };
  return { content: "ok" };
}

const { waitFor, type } = terminalSession(() => SESSION, {
  timeoutMs: WAIT_MS,
  pollMs: 200,
});

let base: string;
let workspace: string;
let server: ScriptedOllama;

beforeAll(async () => {
  const directories = await makeTestDirectories("xz-sandbox-first-chat-");
  ({ base, workspace } = directories);
  await writeFile(
    path.join(workspace, "package.json"),
    `${JSON.stringify({ name: "tiny", version: "1.0.0", private: true, scripts: { test: "node test.js" } }, null, 2)}\n`,
  );
  await writeFile(
    path.join(workspace, "test.js"),
    'require("node:fs").writeFileSync("test-output.txt", "1 passing\\n");\nconsole.log("1 passing");\n',
  );
  server = await startScriptedOllama({ scenario });
  startChatInTmux({
    session: SESSION,
    home: directories.home,
    columns: 200,
    // Write mode for the terminal; the approval policy is chat's default.
    args: ["--mode", "write", "--host", server.url, "-w", workspace],
  });
  await waitFor(
    (text) => text.includes("[WRITE][ON-ESCALATION][ollama: llama3.2:latest] >>>"),
    "the prompt with the default approval policy",
  );
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  killSession(SESSION);
  await server?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe("xzatoma chat with the default approval policy (on-escalation)", () => {
  it(
    "runs npm test in the sandbox without asking, and its file reaches the workspace",
    async () => {
      type("run the tests");
      const shown = await waitFor(
        (text) => text.includes("Tool said: exit code 0"),
        "npm test's result",
      );
      expect(shown).not.toContain(QUESTION);
      expect(shown).not.toContain("wants to:");
      expect(await readFile(path.join(workspace, "test-output.txt"), "utf8")).toBe("1 passing\n");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "asks before a command that needs the network, showing the command and why, and 'r' refuses it",
    async () => {
      type("fetch the page");
      const asked = await waitFor((text) => text.includes(QUESTION), "the question");
      const question = asked.slice(asked.lastIndexOf("fetch the page"));
      expect(question).toContain("? terminal wants to: curl https://example.invalid/x  (in .)");
      // Why, between the command and the choices: the network, which only a person gives,
      // and what a yes would give (no host is allowed for commands here).
      const why = question.slice(
        question.indexOf("? terminal wants to:"),
        question.indexOf(QUESTION),
      );
      expect(why).toContain(
        "`curl` needs the network, which the sandbox gives only to hosts a person allows.",
      );
      expect(why).toContain("No hosts are allowed for commands (agent.terminal.egress_hosts)");
      type("r");
      await waitFor(
        (text) => text.includes("Tool said: Error: The call to 'terminal' was not approved"),
        "the refusal",
      );
      const requests = server.requests.flatMap((request) => request.messages);
      const refusal = requests.findLast((message) => message.role === "tool");
      expect(refusal?.content).toMatch(/^Error: The call to 'terminal' was not approved/);
      expect(existsSync(path.join(workspace, "x"))).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );
});
