// Time from launching `xzatoma chat` to a ready prompt, median of 10: in a terminal (a pty,
// so the line editor, raw mode and the status line start as a person gets them) and with
// piped input (readline, as a script gets it). Target: 250 ms in the terminal.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { startPtyChat } from "./chat-pty.ts";
import { CLI, format, median } from "./measure.ts";

const RUNS = 10;
const home = mkdtempSync(path.join(tmpdir(), "xz-chat-start-"));
const server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });

function readyPiped(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, "chat", "--host", server.url], {
      cwd: home,
      env: { PATH: process.env["PATH"] ?? "", HOME: home },
      stdio: ["pipe", "pipe", "ignore"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(">>> ")) {
        const elapsed = performance.now() - started;
        child.stdin.end("exit\n");
        child.on("close", () => resolve(elapsed));
      }
    });
    child.on("error", reject);
  });
}

/** In a pty: until the prompt and the status line under it are drawn. */
async function readyInTerminal(): Promise<number> {
  const started = performance.now();
  const chat = startPtyChat(["--host", server.url], { home, cwd: home, color: false });
  await chat.waitFor((text) => text.includes(">>> ") && text.includes("approvals"), "the prompt");
  const elapsed = performance.now() - started;
  await chat.close();
  return elapsed;
}

/** `script` itself, starting a shell that runs `true`: what the pty adds to the measure. */
function ptyFloor(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("script", ["-qfec", "true", "/dev/null"], {
      stdio: ["pipe", "ignore", "ignore"],
    });
    child.on("close", () => resolve(performance.now() - started));
    child.on("error", reject);
  });
}

try {
  await readyPiped();
  await readyInTerminal();
  const terminal: number[] = [];
  const piped: number[] = [];
  const floor: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    terminal.push(await readyInTerminal());
    piped.push(await readyPiped());
    floor.push(await ptyFloor());
  }
  console.log(
    `xzatoma chat to a ready prompt in a terminal (pty), median of ${RUNS}: ${format(median(terminal))} (target 250 ms; the pty alone: ${format(median(floor))})`,
  );
  console.log(
    `xzatoma chat to a ready prompt with piped input, median of ${RUNS}: ${format(median(piped))}`,
  );
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
}
