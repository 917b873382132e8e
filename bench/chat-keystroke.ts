// Keystroke-to-echo latency of `xzatoma chat` while an answer streams: the chat runs in a
// pty (bench/chat-pty.ts) against a scripted model that streams 600 words, one every 20 ms;
// meanwhile single keys are typed, 80 to 160 ms apart, and each is timed from the write to
// the pty until the chat has drawn the prompt with it. Median, p95 and the worst of 40 keys.
// `node bench/chat-keystroke.ts [KEYS]`
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { percentile, startPtyChat } from "./chat-pty.ts";
import { format, median } from "./measure.ts";

const KEYS = Number(process.argv[2] ?? 40);
const home = mkdtempSync(path.join(tmpdir(), "xz-chat-keystroke-"));
const server = await startScriptedOllama({
  scenario: () => ({
    content: Array.from({ length: 600 }, (_, index) => `word${index}`).join(" "),
    chunkDelayMs: 20,
  }),
});
const chat = startPtyChat(["--host", server.url], { home, cwd: home, color: false, columns: 100 });

try {
  await chat.waitFor((text) => text.includes(">>> "), "the prompt");
  chat.type("tell me everything\r");
  await chat.waitFor((text) => text.includes("word20"), "the answer to stream");
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const samples: number[] = [];
  let typed = "";
  for (let index = 0; index < KEYS; index += 1) {
    const key = letters[index % letters.length] ?? "a";
    typed += key;
    chat.clear();
    const sent = performance.now();
    chat.type(key);
    // The editor draws the prompt and what is typed in one write.
    await chat.waitFor((text) => text.includes(`>>> ${typed}`), `the echo of key ${index + 1}`);
    samples.push(performance.now() - sent);
    await new Promise((resolve) => setTimeout(resolve, 80 + Math.random() * 80));
  }
  const streaming = !chat.output().includes("word599");
  console.log(
    `keystroke to echo while an answer streams (${KEYS} keys${streaming ? "" : "; the answer had ended before the last"}): median ${format(median(samples))}, p95 ${format(percentile(samples, 95))}, worst ${format(Math.max(...samples))}`,
  );
  chat.type("\x03");
  await chat.waitFor((text) => text.includes("(cancelled)"), "the cancellation");
  chat.type("\x15");
  await chat.close();
} finally {
  chat.child.kill();
  await server.close();
  rmSync(home, { recursive: true, force: true });
}
