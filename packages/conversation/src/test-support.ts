/** Helpers for the tests: a synthetic agent conversation and the tool-pairing invariant. */
import {
  assistantMessage,
  toolMessage,
  userMessage,
  type Message,
  type ToolCall,
} from "./message.js";

/** A deterministic pseudo-random generator (mulberry32) in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  "the agent reads files runs commands and decides what to do next based on results while keeping context small".split(
    " ",
  );

function words(random: () => number, count: number): string {
  const out: string[] = [];
  for (let index = 0; index < count; index += 1)
    out.push(WORDS[Math.floor(random() * WORDS.length)] ?? "x");
  return out.join(" ");
}

function toolCall(turn: number, index: number, random: () => number): ToolCall {
  const id = `call_${turn}_${index}`;
  const file = `src/module-${turn % 97}/file-${index}.ts`;
  switch (Math.floor(random() * 5)) {
    case 0:
      return { id, name: "read_file", input: { path: file } };
    case 1:
      return { id, name: "terminal", input: { command: "pnpm test", cwd: "." } };
    case 2:
      return { id, name: "list_directory", input: { path: `src/module-${turn % 97}` } };
    case 3:
      return {
        id,
        name: "copy_path",
        input: { source_path: file, destination_path: `${file}.bak` },
      };
    default:
      return { id, name: "diff", input: { path_a: file, path_b: `${file}.bak` } };
  }
}

/**
 * One synthetic turn: user → assistant with 1-3 tool calls → their results → assistant
 * text. Results are 20-200 words.
 */
export function syntheticTurn(turn: number, random: () => number): Message[] {
  const calls = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, index) =>
    toolCall(turn, index, random),
  );
  return [
    userMessage(`Turn ${turn}: ${words(random, 8)}`),
    assistantMessage(random() < 0.5 ? "" : words(random, 6), calls),
    ...calls.map((call) =>
      toolMessage({
        toolCallId: call.id,
        toolName: call.name,
        content: words(random, 20 + Math.floor(random() * 180)),
        isError: random() < 0.1,
      }),
    ),
    assistantMessage(words(random, 5 + Math.floor(random() * 20))),
  ];
}

/**
 * Checks what providers require of `messages`: every tool result follows its call, and
 * every call has its result unless that result was not appended yet (`answered` holds
 * the ids of every result appended so far). Returns the problems found.
 */
export function toolPairingProblems(
  messages: readonly Message[],
  answered: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  const called = new Set<string>();
  const results = new Set<string>();
  for (const message of messages) {
    if (message.role === "assistant") for (const call of message.toolCalls) called.add(call.id);
    if (message.role === "tool") {
      if (!called.has(message.toolCallId))
        problems.push(`result ${message.toolCallId} without its call`);
      results.add(message.toolCallId);
    }
  }
  for (const id of called)
    if (answered.has(id) && !results.has(id)) problems.push(`call ${id} without its result`);
  return problems;
}

/** Whether the optional peer dependency gpt-tokenizer can be loaded. */
export const gptTokenizerInstalled: boolean =
  await import("gpt-tokenizer/encoding/o200k_base").then(
    () => true,
    () => false,
  );
