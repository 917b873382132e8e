import { createProvider, type Provider } from "@xzatoma/providers";
import type { RuntimeConfig } from "../config/config-values.js";
import type { RuntimeIO } from "../runtime-io.js";

/** The providers of a runtime: its own, and the subagents' when they use another type. */
export interface RuntimeProviders {
  readonly provider: Provider;
  /** Set when subagents are on and `agent.subagent.provider` names another provider type. */
  readonly childProvider: Provider | undefined;
}

/**
 * Builds the model providers of a runtime: `given` (an embedder's or a test's) or the
 * configured one, and, when subagents are on and `agent.subagent.provider` names another
 * type, the children's provider with the same settings. A local model file is never loaded
 * from the workspace.
 */
export function buildRuntimeProviders(
  config: RuntimeConfig,
  io: RuntimeIO,
  context: {
    readonly env: NodeJS.ProcessEnv;
    readonly workspace: string;
    readonly given: Provider | undefined;
    readonly subagents: boolean;
  },
): RuntimeProviders {
  const settings = {
    env: context.env,
    warn: (message: string) => io.warn(message),
    maxContextTokens: config.agent.conversation.max_tokens,
    dataDir: config.persistence.data_dir,
    workspace: context.workspace,
  };
  const provider = context.given ?? createProvider(config.provider, settings);
  const childType = config.agent.subagent.provider;
  const childProvider =
    context.subagents && childType !== undefined && childType !== provider.name
      ? createProvider({ ...config.provider, type: childType }, settings)
      : undefined;
  return { provider, childProvider };
}
