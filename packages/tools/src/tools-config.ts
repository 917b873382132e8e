// The tools' configuration sections, exported from `@xzatoma/tools/config` so that building
// the tools from a configuration already read loads no zod for them.
import { DEFAULT_MAX_OUTPUT_BYTES } from "@xzatoma/core";
import {
  flag,
  portList,
  positiveInteger,
  textList,
  timerSeconds,
  toolPackageList,
} from "@xzatoma/core/config";
import { z } from "zod";
import { DEFAULT_MAX_FILE_READ_BYTES } from "./read-file.js";

const MiB = 1024 * 1024;

/** `agent.tools`: output cap of every tool result, file read size, tool packages to load. */
export const toolsConfigSchema = z.strictObject({
  /** Bytes of one tool result the model sees; longer results are cut with a note. */
  max_output_size: positiveInteger().default(DEFAULT_MAX_OUTPUT_BYTES),
  max_file_read_size: positiveInteger().default(DEFAULT_MAX_FILE_READ_BYTES),
  packages: toolPackageList().default([]),
});

/** `agent.terminal` without `default_mode` (a front end's choice, composed by the runtime). */
export const terminalConfigShape = {
  timeout_seconds: timerSeconds().default(30),
  max_stdout_bytes: positiveInteger().default(10 * MiB),
  max_stderr_bytes: positiveInteger().default(MiB),
  /** Read-only programs added to the built-in allowlist. */
  allowlist: textList().default([]),
  /** Programs (with optional words that follow them) the command policy always blocks. */
  custom_denylist: textList().default([]),
  sandbox: flag().default(true),
  /** Full host network for every sandboxed command, unasked (prefer `egress_hosts`). */
  network: flag().default(false),
  /**
   * Hosts a command that needs the network may reach through XZatoma's egress proxy:
   * `host`, `host:port`, `*.domain`. With a person's yes per command, or unasked with
   * `egress_unattended`.
   */
  egress_hosts: textList().default([]),
  /** Commands that need the network reach `egress_hosts` unasked (never after a secret was read). */
  egress_unattended: flag().default(false),
  allow_unattended_git_writes: flag().default(false),
};

/** `agent.terminal`, the part the terminal tool and its command policy read. */
export const terminalConfigSchema = z.strictObject(terminalConfigShape);

/** `agent.fetch`: the fetch tool and `@url:` mentions. */
export const fetchConfigSchema = z.strictObject({
  timeout_seconds: timerSeconds().default(60),
  max_response_size: positiveInteger().default(MiB),
  allowed_ports: portList().default([80, 443]),
  allowed_hosts: textList().default([]),
});

export type ToolsConfig = z.output<typeof toolsConfigSchema>;
export type TerminalConfig = z.output<typeof terminalConfigSchema>;
export type FetchConfig = z.output<typeof fetchConfigSchema>;
