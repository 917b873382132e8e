// What one request asks of the local model, read from the AI SDK's call options: the
// chat history, the tools offered or forced, a JSON answer, and the warnings for what the
// local model does not do.
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  SharedV4Warning,
} from "@ai-sdk/provider";
import { InvalidArgumentError, ProviderError } from "@xzatoma/core";
import type { ChatHistoryItem, ChatModelFunctions, GbnfJsonSchema } from "node-llama-cpp";
import { toChatHistory } from "./prompt.js";
import { dropOptionalNulls, toGrammarSchema, type GrammarSchema } from "./schema.js";
import type { Session } from "./session.js";
import { LOCAL_TOOL_INSTRUCTIONS, withToolInstructions } from "./tool-instructions.js";

export interface ToolPlan {
  readonly tools: ReadonlyMap<string, LanguageModelV4FunctionTool>;
  /** Offered to the model, which may call them (tool choice `auto`). */
  readonly functions?: ChatModelFunctions;
  /** The model must call one of these (tool choice `required` or a named tool). */
  readonly forced?: readonly LanguageModelV4FunctionTool[];
}

export interface RequestPlan extends ToolPlan {
  readonly history: ChatHistoryItem[];
  readonly warnings: SharedV4Warning[];
  readonly json?: { readonly schema?: unknown };
}

function planTools(options: LanguageModelV4CallOptions, warnings: SharedV4Warning[]): ToolPlan {
  const tools = new Map<string, LanguageModelV4FunctionTool>();
  for (const tool of options.tools ?? []) {
    if (tool.type === "function") tools.set(tool.name, tool);
    else warnings.push({ type: "unsupported", feature: `provider tool ${tool.name}` });
  }
  const choice = options.toolChoice ?? { type: "auto" };
  if (tools.size === 0) {
    if (choice.type === "required" || choice.type === "tool") {
      throw new InvalidArgumentError(
        "The request requires a tool call but offers no tools to the local model.",
      );
    }
    return { tools };
  }
  switch (choice.type) {
    case "none":
      return { tools };
    case "required":
      return { tools, forced: [...tools.values()] };
    case "tool": {
      const tool = tools.get(choice.toolName);
      if (!tool) {
        throw new InvalidArgumentError(
          `The request requires a call of the tool '${choice.toolName}', which is not among its tools (${[...tools.keys()].join(", ")}).`,
        );
      }
      return { tools, forced: [tool] };
    }
    case "auto":
      return { tools, functions: toFunctions(tools.values()) };
  }
}

/**
 * What `options` asks of the local model. `toolInstructions` (see LocalModelOptions) go at
 * the end of the system prompt when the model may call tools.
 */
export function planRequest(
  options: LanguageModelV4CallOptions,
  parallelCalls: boolean,
  toolInstructions: string | false = LOCAL_TOOL_INSTRUCTIONS,
): RequestPlan {
  const warnings: SharedV4Warning[] = [];
  const tools = planTools(options, warnings);
  const converted = toChatHistory(options.prompt, { parallelCalls });
  const { warnings: promptWarnings } = converted;
  const history =
    tools.functions && toolInstructions
      ? withToolInstructions(converted.history, toolInstructions)
      : converted.history;
  warnings.push(...promptWarnings);
  let json: RequestPlan["json"];
  if (options.responseFormat?.type === "json") {
    if (tools.forced || tools.functions) {
      warnings.push({
        type: "unsupported",
        feature: "responseFormat",
        details: "A JSON response format cannot be combined with tool calls; it was ignored.",
      });
    } else {
      json = { schema: options.responseFormat.schema };
    }
  }
  if (options.reasoning !== undefined && options.reasoning !== "provider-default") {
    warnings.push({ type: "unsupported", feature: "reasoning" });
  }
  return { ...tools, history, warnings, ...(json ? { json } : {}) };
}

function toFunctions(tools: Iterable<LanguageModelV4FunctionTool>): ChatModelFunctions {
  const functions: Record<string, ChatModelFunctions[string]> = {};
  for (const tool of tools) {
    functions[tool.name] = {
      ...(tool.description ? { description: tool.description } : {}),
      params: toGrammarSchema(tool.inputSchema) as GbnfJsonSchema,
    };
  }
  return functions;
}

/** Tells the model to call a tool, with the tools written as TypeScript signatures. */
export function forcedToolsInstruction(
  session: Session,
  tools: readonly LanguageModelV4FunctionTool[],
): string {
  const { ChatModelFunctionsDocumentationGenerator } = session.runtime.module;
  const signatures = new ChatModelFunctionsDocumentationGenerator(
    toFunctions(tools),
  ).getTypeScriptFunctionSignatures({ documentParams: true });
  return [
    'Call one of these functions now. Answer only with a JSON object {"name": <function name>, "arguments": <its params>}.',
    "```typescript",
    signatures,
    "```",
  ].join("\n");
}

export function forcedToolsSchema(tools: readonly LanguageModelV4FunctionTool[]): GrammarSchema {
  return {
    oneOf: tools.map((tool) => ({
      type: "object",
      properties: {
        name: { const: tool.name },
        arguments: toGrammarSchema(tool.inputSchema),
      },
    })),
  };
}

/** The tool call a forced answer (`{"name", "arguments"}` JSON) makes. */
export function parseForcedCall(
  text: string,
  stopReason: string,
  plan: RequestPlan,
  modelId: string,
): { toolName: string; input: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const hint =
      stopReason === "maxTokens"
        ? " It ran out of tokens: raise maxOutputTokens (or the model's maxTokens)."
        : "";
    throw new ProviderError(`The local model ${modelId} did not finish its tool call.${hint}`, {
      cause: error,
      fields: { provider: "local", model: modelId },
    });
  }
  const { name, arguments: input } = (parsed ?? {}) as { name?: unknown; arguments?: unknown };
  const tool = typeof name === "string" ? plan.tools.get(name) : undefined;
  if (!tool) {
    throw new ProviderError(`The local model ${modelId} called an unknown tool.`, {
      fields: { provider: "local", model: modelId },
    });
  }
  return {
    toolName: tool.name,
    input: JSON.stringify(dropOptionalNulls(input ?? {}, tool.inputSchema)),
  };
}
