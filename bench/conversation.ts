// Cost of conversation management per added message: 10,000 messages of a synthetic
// agent run (user -> assistant with 1-3 tool calls -> results -> answer) appended to a
// conversation with pruning active, as the agent does (forModel + recordUsage per model
// step). Reports the mean ms per append over the 1,000 appends ending at 1k, 5k and 10k
// messages (flat = independent of length) and the total. Target: < 1 ms per message.
// Build first: (cd packages/conversation && pnpm exec tsup)
import {
  assistantMessage,
  countMessageTokens,
  createConversation,
  createHeuristicCounter,
  createTokenCounter,
  toolMessage,
  userMessage,
  type Message,
  type TokenCounter,
  type ToolCall,
} from "../packages/conversation/dist/index.js";

const TOTAL = 10_000;
const CHECKPOINTS = [1_000, 5_000, 10_000];
const WINDOW = 1_000;

function seededRandom(seed: number): () => number {
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
  "export const value = await readFile(path) ; if (error) return { ok: false } the agent reads files runs commands".split(
    " ",
  );

function text(random: () => number, words: number): string {
  let out = "";
  for (let index = 0; index < words; index += 1)
    out += `${WORDS[Math.floor(random() * WORDS.length)]} `;
  return out;
}

function* messages(random: () => number): Generator<Message> {
  for (let turn = 1; ; turn += 1) {
    yield userMessage(`Turn ${turn}: ${text(random, 12)}`);
    const calls: ToolCall[] = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, index) => ({
      id: `call_${turn}_${index}`,
      name: index % 2 === 0 ? "read_file" : "terminal",
      input:
        index % 2 === 0
          ? { path: `src/module-${turn % 50}/file-${index}.ts` }
          : { command: "pnpm test" },
    }));
    yield assistantMessage(text(random, 10), calls);
    for (const call of calls)
      yield toolMessage({
        toolCallId: call.id,
        toolName: call.name,
        content: text(random, 40 + Math.floor(random() * 400)),
        isError: false,
      });
    yield assistantMessage(text(random, 30));
  }
}

function run(tokenizer: TokenCounter) {
  const conversation = createConversation({ maxTokens: 32_000, tokenizer });
  const durations = new Float64Array(TOTAL);
  const random = seededRandom(1);
  const source = messages(random);
  let prunes = 0;
  let requests = 0;
  let forModelMs = 0;
  for (let index = 0; index < TOTAL; index += 1) {
    const message = source.next().value as Message;
    const started = performance.now();
    const update = conversation.append(message);
    durations[index] = performance.now() - started;
    if (update.pruned) prunes += 1;
    if (message.role === "user" || message.role === "tool") {
      // the agent sends the conversation after a user message or the last tool result
      const sentAt = performance.now();
      const sent = conversation.forModel();
      forModelMs += performance.now() - sentAt;
      // the provider's count: the messages plus ~500 tokens of tool definitions
      let inputTokens = 500;
      for (const each of sent) inputTokens += countMessageTokens(each, tokenizer);
      conversation.recordUsage({ inputTokens });
      requests += 1;
    }
  }
  return { conversation, durations, prunes, requests, forModelMs };
}

function report(label: string, tokenizer: TokenCounter) {
  run(tokenizer); // warm up the JIT
  const { conversation, durations, prunes, requests, forModelMs } = run(tokenizer);
  const status = conversation.status();
  const mean = (from: number, to: number) => {
    let sum = 0;
    for (let index = from; index < to; index += 1) sum += durations[index] ?? 0;
    return sum / (to - from);
  };
  const total = mean(0, TOTAL) * TOTAL;
  console.log(`${label} (${tokenizer.name}), maxTokens 32,000, pruning at 0.8`);
  for (const at of CHECKPOINTS)
    console.log(
      `  at ${String(at).padStart(6)} messages  ${mean(at - WINDOW, at).toFixed(4)} ms per added message`,
    );
  console.log(
    `  total            ${total.toFixed(1)} ms for ${TOTAL} messages (${(total / TOTAL).toFixed(4)} ms each)`,
  );
  console.log(
    `  prunes ${prunes}, visible ${status.visibleMessages}, pruned ${status.prunedMessages}, tokens ${status.tokens}`,
  );
  console.log(
    `  forModel()       ${(forModelMs / requests).toFixed(4)} ms per request (${requests} requests)`,
  );
}

report("heuristic", createHeuristicCounter());
const o200k = await createTokenCounter("gpt-4o");
if (o200k.name === "o200k_base") report("gpt-tokenizer", o200k);
else console.log("gpt-tokenizer is not installed: o200k_base skipped");
