import { statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { loadProjectInstructions } from "@xzatoma/runtime";
import { loadConfig, type LoadedConfig } from "../config/index.js";
import { createMentionLoader } from "../mentions/index.js";
import { createSystemPrompt } from "@xzatoma/runtime";
import { UsageError } from "../usage-error.js";
import { createToolEnvironment, type ToolEnvironment } from "./environment.js";
import { createModelSource, type ModelSource } from "./provider-factory.js";

/** What `run` and `chat` share: configuration, workspace, tools, model, prompt, mentions. */
export interface PreparedSession {
  readonly loaded: LoadedConfig;
  readonly environment: ToolEnvironment;
  readonly models: ModelSource;
  readonly systemPrompt: string;
  readonly mentions: ReturnType<typeof createMentionLoader>;
}

/** Resolves `--workspace` (default: the current directory) or fails naming the flag. */
export function resolveWorkspace(option: string | undefined): string {
  const workspace = path.resolve(option ?? process.cwd());
  let isDirectory = false;
  try {
    isDirectory = statSync(workspace).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory)
    throw new UsageError(`--workspace: '${option ?? workspace}' is not a directory.`);
  return workspace;
}

/** Loads the configuration and builds everything a session needs. */
export async function prepareSession(options: {
  readonly configPath?: string;
  readonly flags: Record<string, unknown>;
  readonly workspace?: string;
  readonly warn: (message: string) => void;
  /**
   * Whether an `@url:` mention the URL guard would ask about (an unusual port) counts as
   * confirmed. Mentions come only from the person's own input, so in chat typing one is the
   * confirmation; in restricted autonomous `run` nobody is asked, and such a URL is refused
   * like any other call that needs a yes. Blocked URLs stay blocked either way.
   */
  readonly mentionUrlsConfirmed: boolean;
}): Promise<PreparedSession> {
  const workspaceRoot = resolveWorkspace(options.workspace);
  const loaded = await loadConfig({
    ...(options.configPath ? { configPath: options.configPath } : {}),
    env: process.env,
    flags: options.flags,
    homeDir: homedir(),
    cwd: process.cwd(),
  });
  const environment = await createToolEnvironment({
    config: loaded.config,
    workspaceRoot,
    ...(loaded.configFileFound ? { configPath: loaded.configPath } : {}),
    warn: options.warn,
  });
  const instructions = await loadProjectInstructions(environment.workspace.root);
  const systemPrompt = createSystemPrompt({
    workspace: environment.workspace.root,
    toolNames: environment.tools.map((tool) => tool.name),
    ...(instructions ? { projectInstructions: instructions.text } : {}),
  });
  const mentions = createMentionLoader({
    pathGuard: environment.workspace.pathGuard,
    confirmed: options.mentionUrlsConfirmed,
    exposure: environment.workspace.exposure,
    fetchUrl: async (url) => {
      const response = await environment.fetcher.fetch(url, {
        confirmed: options.mentionUrlsConfirmed,
      });
      return { url: response.url, contentType: response.contentType, body: response.body };
    },
    maxFileBytes: loaded.config.agent.mentions.max_file_size,
  });
  const models = await createModelSource(loaded.config, { warn: options.warn });
  return { loaded, environment, models, systemPrompt, mentions };
}
