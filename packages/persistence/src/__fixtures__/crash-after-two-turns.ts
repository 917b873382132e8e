// Child process of the crash test: writes two turns, then dies without closing.
import { openHistory } from "../open-history.ts";

const history = openHistory({ path: process.argv[2] ?? "" });
const conversation = history.createConversation({ title: "crash", provider: "p", model: "m" });
history.appendMessages(conversation.id, [{ message: { role: "user", content: "turn 1" } }]);
history.appendMessages(conversation.id, [
  { message: { role: "assistant", content: "turn 2", toolCalls: [] } },
]);
process.stdout.write(`${conversation.id}\n`);
process.kill(process.pid, "SIGKILL");
