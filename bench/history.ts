// History store cost, in process against the built @xzatoma/persistence on a temp file:
// - one turn written (appendMessages of 2 messages with usage, one transaction, fsync'd);
// - a history page (listConversations, limit 20, status + date filter) over 5 000
//   conversations, and a replay tree (a conversation with 3 subagents of 20 messages).
// Run after `nx run persistence:build`: node bench/history.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openHistory } from "../packages/persistence/dist/index.js";
import { median } from "./measure.ts";

const CONVERSATIONS = 5000;
const TURNS = 200;
const directory = mkdtempSync(path.join(tmpdir(), "xz-bench-history-"));
const history = openHistory({ path: path.join(directory, "history.db") });

function time(action: () => void): number {
  const started = performance.now();
  action();
  return performance.now() - started;
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

try {
  const conversation = history.createConversation({ title: "bench", provider: "p", model: "m" });
  const turnTimes: number[] = [];
  for (let turn = 1; turn <= TURNS; turn += 1) {
    turnTimes.push(
      time(() =>
        history.appendMessages(
          conversation.id,
          [
            { message: { role: "user", content: `question ${turn} `.repeat(40) } },
            {
              message: {
                role: "assistant",
                content: `answer ${turn} `.repeat(200),
                toolCalls: [{ id: `c${turn}`, name: "read_file", input: { path: "README.md" } }],
              },
            },
          ],
          { usage: { inputTokens: turn, outputTokens: turn, totalTokens: 2 * turn }, turns: turn },
        ),
      ),
    );
  }

  const started = Date.parse("2026-01-01T00:00:00Z");
  for (let index = 0; index < CONVERSATIONS; index += 1) {
    const { id } = history.createConversation({
      title: `conversation ${index}`,
      provider: "p",
      model: "m",
      startedAt: new Date(started + index * 60_000),
    });
    if (index % 3 !== 0) {
      history.finishConversation(id, {
        status: "completed",
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        turns: 1,
      });
    }
  }
  const pageTimes = Array.from({ length: 50 }, (_, index) =>
    time(() =>
      history.listConversations({
        status: ["completed"],
        since: new Date("2026-01-02T00:00:00Z"),
        offset: index * 20,
      }),
    ),
  );

  const root = history.createConversation({ title: "root", provider: "p", model: "m" });
  for (let child = 0; child < 3; child += 1) {
    const { id } = history.createConversation({
      title: `child ${child}`,
      provider: "p",
      model: "m",
      parentId: root.id,
    });
    history.appendMessages(
      id,
      Array.from({ length: 20 }, (_, index) => ({
        message: { role: "user" as const, content: `message ${index}` },
      })),
    );
  }
  const treeTimes = Array.from({ length: 50 }, () =>
    time(() => history.getConversationTree(root.id)),
  );

  console.log("history store (SQLite, WAL, synchronous=FULL)");
  console.log(`  turn written, median of ${TURNS}        ${ms(median(turnTimes))}`);
  console.log(`  history page over ${CONVERSATIONS}, median of 50 ${ms(median(pageTimes))}`);
  console.log(`  replay tree (3 subagents), median of 50 ${ms(median(treeTimes))}`);
} finally {
  history.close();
  rmSync(directory, { recursive: true, force: true });
}
