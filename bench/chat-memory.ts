// Peak memory of a 200-turn `xzatoma chat` session: the chat runs in a pty (bench/chat-pty.ts,
// so the line editor, the status line and the Markdown renderer with colours all work) against
// a scripted model whose every answer is a paragraph of ~60 words with inline Markdown and a
// highlighted code block. Reports the chat process's peak RSS (VmHWM) and its RSS every 50
// turns. `node bench/chat-memory.ts [TURNS]`
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { peakRssMiB, startPtyChat } from "./chat-pty.ts";

const TURNS = Number(process.argv[2] ?? 200);
const home = mkdtempSync(path.join(tmpdir(), "xz-chat-memory-"));
const server = await startScriptedOllama({
  scenario: (request) => {
    const turn = request.messages.filter((message) => message.role === "user").length;
    const paragraph = Array.from(
      { length: 12 },
      (_, index) => `Part ${index} has **bold words**, some \`code\` and plain text`,
    ).join(", ");
    return {
      content: `${paragraph}.\n\n\`\`\`ts\nconst turn = ${turn};\nfunction twice(n: number) {\n  return n * 2; // doubled\n}\n\`\`\`\nAnswer ${turn} done.`,
    };
  },
});
const chat = startPtyChat(["--host", server.url], { home, cwd: home, columns: 120, rows: 40 });
const rssMiB = (pid: number) =>
  Number(
    /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN,
  ) / 1024;

try {
  await chat.waitFor((text) => text.includes(">>> "), "the prompt");
  const pid = chat.chatPid();
  if (pid === undefined) throw new Error("the chat's process was not found below script");
  const started = performance.now();
  const marks: string[] = [`start ${rssMiB(pid).toFixed(1)} MiB`];
  for (let turn = 1; turn <= TURNS; turn += 1) {
    chat.clear();
    chat.type(`question number ${turn}: explain the next part\r`);
    await chat.waitFor((text) => text.includes(`Answer ${turn} done.`), `answer ${turn}`, 120_000);
    if (turn % 50 === 0) marks.push(`turn ${turn} ${rssMiB(pid).toFixed(1)} MiB`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `xzatoma chat, ${TURNS} turns in a terminal (${seconds.toFixed(1)} s): peak RSS ${peakRssMiB(pid).toFixed(1)} MiB; RSS ${marks.join(", ")}`,
  );
  await chat.close();
} finally {
  chat.child.kill();
  await server.close();
  rmSync(home, { recursive: true, force: true });
}
