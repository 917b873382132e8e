// What one loaded local model keeps between requests: the runtime, the model, its one
// context sequence, its chat template and the grammars made for it.
import type {
  ChatHistoryItem,
  ChatModelFunctions,
  ChatWrapper,
  GbnfJsonSchema,
  LlamaContext,
  LlamaContextSequence,
  LlamaGrammar,
  LlamaModel,
} from "node-llama-cpp";
import { describeError, ProviderError } from "@xzatoma/core";
import { withJsonCallOpenings } from "./json-call-openings.js";
import { DEFAULT_LOCAL_CONTEXT_SIZE, type LocalModelOptions } from "./options.js";
import { loadModel, runtimeEpoch, type LoadedRuntime } from "./runtime.js";
import type { GrammarSchema } from "./schema.js";

/** A loaded model with its context, valid while `epoch` is the runtime's. */
export interface Session {
  readonly epoch: number;
  readonly runtime: LoadedRuntime;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly sequence: LlamaContextSequence;
  readonly chatWrapper: ChatWrapper;
  readonly grammars: Map<string, Promise<LlamaGrammar>>;
}

const MAX_CACHED_GRAMMARS = 16;

/**
 * A grammar for JSON matching `schema`, written compactly. node-llama-cpp's own JSON Schema
 * grammar lets the model indent with newlines and ends with four newlines: a third of the
 * tokens of a small tool call. Its whitespace rules are rewritten to single optional spaces
 * and its end to the end of the JSON; if the grammar text ever looks different, it is
 * used unchanged.
 */
async function createJsonSchemaGrammar(
  session: Session,
  schema: GrammarSchema,
): Promise<LlamaGrammar> {
  const { llama } = session.runtime;
  // The method's generic signature wants a literal schema type; ours is built at run time.
  const create = llama.createGrammarForJsonSchema.bind(llama) as (
    schema: GbnfJsonSchema,
  ) => Promise<LlamaGrammar>;
  const grammar = await create(schema as GbnfJsonSchema);
  const root = /^root ::= (\S+) "\\n\\n\\n\\n" \[\\n\]\*$/m;
  if (!root.test(grammar.grammar)) return grammar;
  const compact = grammar.grammar
    .replace(root, "root ::= $1")
    .replace(/^(comma-whitespace-b-\d+-\d+-rule) ::= .*$/gm, '$1 ::= "," [ ]?')
    .replace(/^(whitespace-b-\d+-\d+-rule) ::= .*$/gm, "$1 ::= [ ]?");
  try {
    return await llama.createGrammar({ grammar: compact, trimWhitespaceSuffix: true });
  } catch {
    return grammar;
  }
}

/**
 * Loads the model of `modelPath` (shared with every local model of the file) and creates
 * its context: `contextSize` tokens (default 4096 or the model's training context if
 * smaller) with one sequence.
 */
export async function startSession(
  modelPath: string,
  runtimeModule: string,
  options: LocalModelOptions,
): Promise<Session> {
  const epoch = runtimeEpoch();
  const { runtime, model } = await loadModel(modelPath, runtimeModule);
  const contextSize =
    options.contextSize ?? Math.min(DEFAULT_LOCAL_CONTEXT_SIZE, model.trainContextSize);
  let context: LlamaContext;
  try {
    context = await model.createContext({
      contextSize,
      sequences: 1,
      // node-llama-cpp's default (at least 4 threads) oversubscribes small machines, and
      // llama.cpp's spinning threads then crawl: default to the cores useful for math.
      threads: options.threads ?? Math.max(1, runtime.llama.cpuMathCores),
    });
  } catch (error) {
    throw new ProviderError(
      `Cannot create a context of ${contextSize} tokens for the local model ${modelPath}: ${describeError(error)}. Try a smaller contextSize.`,
      { cause: error },
    );
  }
  return {
    epoch,
    runtime,
    model,
    context,
    sequence: context.getSequence(),
    // The model's own chat template (node-llama-cpp picks the wrapper that renders it), which
    // also recognises a call the model opens as JSON text.
    chatWrapper: withJsonCallOpenings(runtime.module.resolveChatWrapper(model)),
    grammars: new Map(),
  };
}

/** The grammar for JSON matching `schema` (any JSON when undefined), made once per session. */
export function grammarFor(
  session: Session,
  schema: GrammarSchema | undefined,
): Promise<LlamaGrammar> {
  const key = schema === undefined ? "json" : JSON.stringify(schema);
  let grammar = session.grammars.get(key);
  if (!grammar) {
    grammar =
      schema === undefined
        ? session.runtime.llama.getGrammarFor("json")
        : createJsonSchemaGrammar(session, schema);
    if (session.grammars.size >= MAX_CACHED_GRAMMARS) session.grammars.clear();
    session.grammars.set(key, grammar);
    const pending = grammar;
    pending.catch(() => session.grammars.delete(key));
  }
  return grammar;
}

/** Tokens of `history` as the model reads it, with `functions` documented. */
export function promptTokens(
  session: Session,
  history: readonly ChatHistoryItem[],
  functions: ChatModelFunctions | undefined,
): number {
  const last = history.at(-1);
  const withAnswer: ChatHistoryItem[] =
    last?.type === "model" ? [...history] : [...history, { type: "model", response: [] }];
  const { contextText } = session.chatWrapper.generateContextState({
    chatHistory: withAnswer,
    ...(functions ? { availableFunctions: functions, documentFunctionParams: true } : {}),
  });
  return contextText.tokenize(session.model.tokenizer).length;
}
