// `/compact FOCUS` and `/context` in `xzatoma chat`, in a real terminal (tmux), against a
// scripted Ollama: the older turns are pruned and summarised by the model with the focus, the
// person's request the summary left out is added from the record, and the next request still
// carries the project's instructions (AGENTS.md) and the first request.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChatInTmux } from "./chat-terminal.test-support.js";
import { killSession, terminalSession } from "./terminal.test-support.js";
import { makeTestDirectories } from "./workspace.test-support.js";
const SESSION = `xz-chat-compact-${process.pid}`;
const MARKER = "MARKER-RULE-9902";

const { waitFor, type } = terminalSession(() => SESSION);

let base: string;
let server: ScriptedOllama;

beforeAll(async () => {
  const directories = await makeTestDirectories("xz-chat-compact-");
  ({ base } = directories);
  const { workspace, home } = directories;
  await mkdir(path.join(workspace, ".git"));
  await writeFile(path.join(workspace, "AGENTS.md"), `${MARKER}: answer briefly.\n`);
  server = await startScriptedOllama({
    scenario: (request) => {
      const system = request.messages[0]?.content ?? "";
      if (system.startsWith("Summarise")) return { content: "The person is planning a trip." };
      const text = request.messages.findLast((m) => m.role === "user")?.content ?? "";
      return { content: `Noted: ${text}` };
    },
  });
  startChatInTmux({ session: SESSION, home, args: ["--host", server.url, "-w", workspace] });
});

afterAll(async () => {
  killSession(SESSION);
  await server.close();
  await rm(base, { recursive: true, force: true });
});

describe("/compact in chat", () => {
  it("prunes and summarises with the focus, keeping the instructions and the first request", async () => {
    await waitFor((text) => text.includes(">>> "), "the prompt");
    for (const message of ["GOAL: plan the Lisbon trip", "book trains only", "what about hotels"]) {
      type(message);
      await waitFor((text) => text.includes(`Noted: ${message}`), `the answer to '${message}'`);
    }
    type("/compact the train bookings");
    const compacted = await waitFor(
      (text) => text.includes("Summary the model now reads:"),
      "/compact",
    );
    expect(compacted).toMatch(/Compacted: 3 older message\(s\) are no longer sent to the model/);
    expect(compacted).toContain("The person is planning a trip.");
    expect(compacted).toContain('- "book trains only"');
    const summary = server.requests.at(-1)?.messages[0]?.content ?? "";
    expect(summary).toContain("Keep most detail about: the train bookings");

    type("/context");
    await waitFor((text) => text.includes("Tool definitions:"), "/context");

    type("and the museums");
    await waitFor((text) => text.includes("Noted: and the museums"), "the next answer");
    const sent = (server.requests.at(-1)?.messages ?? []).map((message) => message.content);
    expect(sent[0]).toContain(MARKER);
    expect(sent).toContain("GOAL: plan the Lisbon trip");
    expect(sent).not.toContain("book trains only");
    expect(sent.some((text) => text.includes('"book trains only"'))).toBe(true);
  }, 240_000);
});
