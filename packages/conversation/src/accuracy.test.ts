/**
 * How far the character heuristic is from a real tokenizer. gpt-tokenizer's o200k_base
 * (what OpenAI's gpt-4o family counts) plays the provider: its counts are the "reported
 * usage". The corpus is real, fixed text from the installed gpt-tokenizer package:
 * TypeScript code, Markdown and licence prose, JSON (package.json, a directory listing,
 * a terminal result). Skipped when the optional peer dependency is not installed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createConversation } from "./conversation.js";
import {
  assistantMessage,
  systemMessage,
  toolMessage,
  userMessage,
  type Message,
} from "./message.js";
import { gptTokenizerInstalled } from "./test-support.js";
import {
  countMessageTokens,
  createHeuristicCounter,
  createTokenCounter,
  type TokenCounter,
} from "./token-counter.js";

const read = (file: string) => readFileSync(file, "utf8");

function corpus(): Record<string, string[]> {
  const root = path.dirname(createRequire(import.meta.url).resolve("gpt-tokenizer/package.json"));
  const source = (name: string) => read(path.join(root, "src", name));
  const listing = readdirSync(path.join(root, "esm"))
    .slice(0, 120)
    .map((name) => {
      const stats = statSync(path.join(root, "esm", name));
      return { name, type: stats.isDirectory() ? "directory" : "file", size: stats.size };
    });
  return {
    code: [
      "GptEncoding.ts",
      "BytePairEncodingCore.ts",
      "functionCalling.ts",
      "GptEncoding.test.ts",
      "utfUtil.ts",
      "resolveEncoding.ts",
    ].map(source),
    prose: [read(path.join(root, "README.md")), read(path.join(root, "LICENSE"))],
    json: [
      read(path.join(root, "package.json")),
      JSON.stringify({ path: "esm", entries: listing }, null, 2),
      JSON.stringify({
        exitCode: 1,
        stdout: "",
        stderr: "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
        durationMs: 1843,
      }),
    ],
    cjk: [
      "人工智能代理可以读取文件、运行命令并根据结果决定下一步。为了让长对话保持在模型的上下文窗口内，我们需要在不丢失重要信息的情况下修剪旧消息。",
      "エージェントはファイルを読み、コマンドを実行し、その結果に基づいて次の手順を決定します。",
    ],
  };
}

describe.skipIf(!gptTokenizerInstalled)("the heuristic against o200k_base", () => {
  let truth: TokenCounter;
  beforeAll(async () => {
    truth = await createTokenCounter("gpt-4o");
    expect(truth.name).toBe("o200k_base");
  });

  it("stays within 35% per kind of text", () => {
    const heuristic = createHeuristicCounter();
    const rows: string[] = [];
    for (const [kind, texts] of Object.entries(corpus())) {
      let real = 0;
      let estimate = 0;
      for (const text of texts) {
        real += truth.count(text);
        estimate += heuristic.count(text);
      }
      const error = (estimate - real) / real;
      rows.push(
        `${kind.padEnd(6)} o200k ${String(real).padStart(6)}  heuristic ${String(estimate).padStart(6)}  error ${(error * 100).toFixed(1)}%`,
      );
      expect(Math.abs(error), kind).toBeLessThan(0.35);
    }
    console.log(`heuristic vs o200k_base:\n${rows.join("\n")}`);
  });

  it("matters little once provider usage is recorded: only the latest step is estimated", () => {
    const texts = corpus();
    // read_file results of ~4 KB chunks of code, JSON results, and prose answers, interleaved
    const chunks = (text: string) => text.match(/[\s\S]{1,4000}/g) ?? [];
    const results = [...(texts.code ?? []).flatMap(chunks), ...(texts.json ?? [])];
    const answers = (texts.prose?.[0] ?? "").split(/\n\s*\n/).filter((p) => p.length > 200);
    const steps: Message[][] = results.map((content, index) => {
      const id = `call_${index}`;
      return [
        assistantMessage(answers[index % answers.length] ?? "", [
          { id, name: "read_file", input: { path: `src/file-${index}.ts`, start_line: 1 } },
        ]),
        toolMessage({ toolCallId: id, toolName: "read_file", content, isError: false }),
      ];
    });
    const conversation = createConversation({ maxTokens: 1_000_000 });
    conversation.append(systemMessage(texts.prose?.[1] ?? "")); // the licence text
    conversation.append(
      userMessage("Review the tokenizer code and summarise what each file does."),
    );
    const mixed: number[] = [];
    const alone: number[] = [];
    const measure = (sent: readonly Message[], counter: TokenCounter) =>
      sent.reduce((sum, message) => sum + countMessageTokens(message, counter), 0);
    const heuristic = createHeuristicCounter();
    for (const step of steps) {
      // the provider's count of the request
      conversation.recordUsage({ inputTokens: measure(conversation.forModel(), truth) });
      for (const message of step) conversation.append(message);
      const sent = conversation.forModel();
      const real = measure(sent, truth);
      mixed.push(Math.abs(conversation.status().tokens - real) / real);
      alone.push(Math.abs(measure(sent, heuristic) - real) / real);
    }
    const mean = (values: number[]) =>
      values.reduce((sum, value) => sum + value, 0) / values.length;
    const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
    console.log(
      `conversation total vs o200k over ${steps.length} tool steps: ` +
        `reported usage + estimate of the last step: mean error ${percent(mean(mixed))}, worst ${percent(Math.max(...mixed))}; ` +
        `heuristic alone: mean ${percent(mean(alone))}, worst ${percent(Math.max(...alone))}`,
    );
    expect(mean(mixed)).toBeLessThan(0.05);
    expect(Math.max(...mixed)).toBeLessThan(0.35);
    expect(mean(mixed)).toBeLessThan(mean(alone));
  });
});
