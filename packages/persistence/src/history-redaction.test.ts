import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fakeSecrets } from "@xzatoma/redaction/testing";
import { tempDbPath } from "./__fixtures__/temp-history.js";
import type { History } from "./history.js";
import { openHistory } from "./open-history.js";

/** A word stored with every entry: it must be in the files, or they were not read. */
const MARKER = "stored-marker-7Q2";

function writeCorpus(history: History): void {
  const corpus = fakeSecrets();
  for (const [index, entry] of corpus.entries()) {
    const conversation = history.createConversation({
      title: `${MARKER} ${entry.text}`,
      label: entry.text,
      provider: "ollama",
      model: "m",
    });
    const callId = `call-${index}`;
    history.appendMessages(conversation.id, [
      { message: { role: "system", content: entry.text } },
      { message: { role: "user", content: `${MARKER} please use ${entry.text}` } },
      {
        message: {
          role: "assistant",
          content: entry.text,
          toolCalls: [
            {
              id: callId,
              name: "terminal",
              input: {
                command: entry.text,
                args: [entry.text, index],
                // A secret with nothing around it but the key that names it.
                env: { API_KEY: entry.secrets[0] ?? "", password: entry.secrets.at(-1) ?? "" },
              },
            },
          ],
        },
      },
      {
        message: {
          role: "tool",
          toolCallId: callId,
          toolName: "terminal",
          content: `${MARKER} output:\n${entry.text}`,
          isError: false,
        },
      },
    ]);
    history.finishConversation(conversation.id, {
      status: "failed",
      stopReason: entry.text,
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      turns: 1,
    });
    history.markEventProcessed(`event-${index}`, { outcome: entry.text });
  }
}

function readIfPresent(file: string): Buffer {
  return existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
}

function expectNoSecret(bytes: Buffer, where: string): void {
  for (const secret of fakeSecrets().flatMap((entry) => entry.secrets))
    expect(bytes.includes(secret), `${where} holds ${secret}`).toBe(false);
}

describe("the history database holds no secret", () => {
  it("in history.db, its WAL before a checkpoint and its shared memory, open and closed", () => {
    const file = tempDbPath();
    const history = openHistory({ path: file });
    writeCorpus(history);

    // Open: the turns are in the WAL, not yet checkpointed into the database file.
    const wal = readIfPresent(`${file}-wal`);
    expect(wal.includes(MARKER)).toBe(true);
    expectNoSecret(wal, "history.db-wal");
    expectNoSecret(readIfPresent(`${file}-shm`), "history.db-shm");
    expectNoSecret(readIfPresent(file), "history.db");

    history.close();
    const closed = Buffer.concat([
      readIfPresent(file),
      readIfPresent(`${file}-wal`),
      readIfPresent(`${file}-shm`),
    ]);
    expect(closed.includes(MARKER)).toBe(true);
    expectNoSecret(closed, "history.db after close");
  });

  it("keeps what surrounds a secret readable", () => {
    const file = tempDbPath();
    const history = openHistory({ path: file });
    writeCorpus(history);
    const page = history.listConversations({ limit: 500 });
    const titles = page.items.map((conversation) => conversation.title).join("\n");
    expect(titles).toContain('"password": "[REDACTED]"');
    expect(titles).toContain("AccountKey=[REDACTED]");
    const stored = history.getConversation(page.items[0]!.id)?.messages[2]?.message;
    expect(stored).toMatchObject({ toolCalls: [{ input: { env: { API_KEY: "[REDACTED]" } } }] });
    history.close();
  });
});
