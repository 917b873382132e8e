// `@xzatoma/tools/config`: the zod schemas of the tools' configuration sections
// (`agent.tools`, `agent.terminal`, `agent.fetch`), kept out of the main entry so that
// building the tools from a configuration already read loads no zod for them.
export {
  fetchConfigSchema,
  terminalConfigSchema,
  terminalConfigShape,
  toolsConfigSchema,
  type FetchConfig,
  type TerminalConfig,
  type ToolsConfig,
} from "./tools-config.js";
