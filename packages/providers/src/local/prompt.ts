import type {
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
  SharedV4Warning,
} from "@ai-sdk/provider";
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelResponse } from "node-llama-cpp";

/** The chat history node-llama-cpp renders with the model's chat template. */
export interface LocalChatHistory {
  readonly history: ChatHistoryItem[];
  readonly warnings: SharedV4Warning[];
}

function parseInput(input: unknown): unknown {
  if (typeof input !== "string") return input ?? {};
  try {
    return input.trim() === "" ? {} : JSON.parse(input);
  } catch {
    return input;
  }
}

/** What the model reads as the result of a call. */
export function toolResultValue(output: LanguageModelV4ToolResultOutput): unknown {
  switch (output.type) {
    case "text":
    case "json":
      return output.value;
    case "error-text":
      return `Error: ${output.value}`;
    case "error-json":
      return { error: output.value };
    case "execution-denied":
      return `The call was not run: ${output.reason ?? "the user denied it."}`;
    case "content":
      return output.value
        .map((part) => (part.type === "text" ? part.text : `[${part.type} omitted]`))
        .join("\n");
  }
}

const NO_RESULT = "The call returned no result.";

/**
 * Converts an AI SDK prompt into node-llama-cpp's chat history.
 *
 * An assistant message, the tool results after it and the assistant message that follows
 * them are one model turn to node-llama-cpp: tool calls become `functionCall` items that
 * carry their result, and the model continues the same response after them.
 */
export function toChatHistory(
  prompt: LanguageModelV4Prompt,
  options: { readonly parallelCalls?: boolean } = {},
): LocalChatHistory {
  const history: ChatHistoryItem[] = [];
  const warnings: SharedV4Warning[] = [];
  const calls = new Map<string, ChatModelFunctionCall>();
  const omitted = new Set<string>();
  let current: ChatModelResponse | undefined;

  const modelTurn = (): ChatModelResponse => {
    if (!current) {
      current = { type: "model", response: [] };
      history.push(current);
    }
    return current;
  };

  for (const message of prompt) {
    switch (message.role) {
      case "system":
        history.push({ type: "system", text: message.content });
        current = undefined;
        break;
      case "user": {
        const texts: string[] = [];
        for (const part of message.content) {
          if (part.type === "text") texts.push(part.text);
          else omitted.add(`${part.type} parts`);
        }
        history.push({ type: "user", text: texts.join("\n") });
        current = undefined;
        break;
      }
      case "assistant": {
        const turn = modelTurn();
        let first = true;
        for (const part of message.content) {
          switch (part.type) {
            case "text":
              if (part.text !== "") turn.response.push(part.text);
              break;
            case "reasoning":
              turn.response.push({
                type: "segment",
                segmentType: "thought",
                text: part.text,
                ended: true,
              });
              break;
            case "tool-call": {
              const call: ChatModelFunctionCall = {
                type: "functionCall",
                name: part.toolName,
                params: parseInput(part.input),
                result: NO_RESULT,
                ...(options.parallelCalls && first ? { startsNewChunk: true } : {}),
              };
              first = false;
              calls.set(part.toolCallId, call);
              turn.response.push(call);
              break;
            }
            case "tool-result": {
              const call = calls.get(part.toolCallId);
              if (call) call.result = toolResultValue(part.output);
              break;
            }
            default:
              omitted.add(`${part.type} parts`);
          }
        }
        break;
      }
      case "tool":
        for (const part of message.content) {
          if (part.type !== "tool-result") continue;
          const call = calls.get(part.toolCallId);
          if (call) {
            call.result = toolResultValue(part.output);
          } else {
            // A result without its call: show it as a call so the model still reads it.
            modelTurn().response.push({
              type: "functionCall",
              name: part.toolName,
              params: {},
              result: toolResultValue(part.output),
            });
          }
        }
        break;
    }
  }

  for (const feature of omitted) {
    warnings.push({
      type: "unsupported",
      feature,
      details: "The local provider reads text only; these parts were left out of the prompt.",
    });
  }
  return { history, warnings };
}
