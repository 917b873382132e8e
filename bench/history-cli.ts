// `xzatoma history list` and `xzatoma replay ID` against 10,000 stored conversations,
// whole process, median of 5. Target: under 200 ms each.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openHistory } from "../packages/persistence/dist/index.js";
import { CLI, format, median, timeSync } from "./measure.ts";

const CONVERSATIONS = 10_000;
const RUNS = 5;
const home = mkdtempSync(path.join(tmpdir(), "xz-history-bench-"));
const database = path.join(home, "history.db");
const history = openHistory({ path: database });
let last = "";
const seeded = performance.now();
for (let index = 0; index < CONVERSATIONS; index += 1) {
  const record = history.createConversation({
    title: `conversation ${index}`,
    provider: "ollama",
    model: "llama3.2",
  });
  history.appendMessages(record.id, [
    { message: { role: "user", content: `question ${index}` } },
    {
      message: {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "read_file", input: { path: "README.md" } }],
      },
    },
    {
      message: {
        role: "tool",
        toolCallId: "c1",
        toolName: "read_file",
        content: "# readme",
        isError: false,
      },
    },
    { message: { role: "assistant", content: `answer ${index}`, toolCalls: [] } },
  ]);
  history.finishConversation(record.id, {
    status: "completed",
    stopReason: "completed",
    usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    turns: 2,
  });
  last = record.id;
}
history.close();
console.log(`seeded ${CONVERSATIONS} conversations in ${format(performance.now() - seeded)}`);

// The seeded file is named with --storage-path (the CLI reads no environment variable for
// it); HOME points at the empty temp directory so no user configuration applies.
const env = { ...process.env, HOME: home };
const time = (args: string[]) => {
  const original = process.env;
  process.env = env;
  const argv = [CLI, "--storage-path", database, ...args];
  try {
    timeSync(process.execPath, argv);
    return median(Array.from({ length: RUNS }, () => timeSync(process.execPath, argv)));
  } finally {
    process.env = original;
  }
};
try {
  console.log(`  history list          ${format(time(["history", "list"]))} (target < 200 ms)`);
  console.log(`  history list --json   ${format(time(["history", "list", "--json"]))}`);
  console.log(`  replay ID             ${format(time(["replay", last]))} (target < 200 ms)`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
