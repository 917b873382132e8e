import { toTerminalSafeLine } from "../render/terminal-safe.js";
import { parseRewindArguments, type RewindArguments } from "./rewind-arguments.js";

/** A line typed at the chat prompt that is a command rather than a message. */
export type SlashCommand =
  | { readonly kind: "mode"; readonly mode: "planning" | "write" }
  | {
      readonly kind: "approvals";
      readonly policy: "untrusted" | "on-escalation" | "never" | undefined;
    }
  | { readonly kind: "status" }
  | { readonly kind: "mcp" }
  | { readonly kind: "skills" }
  | { readonly kind: "context"; readonly summary: boolean }
  | { readonly kind: "compact"; readonly focus: string }
  | { readonly kind: "models" }
  | { readonly kind: "model"; readonly name: string }
  | { readonly kind: "clear" }
  | RewindArguments
  | { readonly kind: "fork" }
  | { readonly kind: "help" }
  | { readonly kind: "exit" }
  | { readonly kind: "unknown"; readonly text: string; readonly message: string };

/** The help text of the chat commands. */
export const SLASH_HELP = `Commands:
  /mode planning|write   switch mode (also /planning, /write); the conversation is kept
  /approvals [POLICY]    when you are asked: untrusted (before every change),
                         on-escalation (only when a call needs what the sandbox
                         withholds), never (refuse those instead of asking)
  /status                mode, approval policy, model, workspace and usage
  /mcp                   MCP servers, their state and their tools
  /skills                the skills and custom commands offered ($skill in a message
                         loads a skill; /NAME ARGS runs a custom command)
  /context               tokens used and left in the context window
  /context summary       replace older turns by a summary written by the model
  /compact [FOCUS]       compact now: older turns pruned and summarised by the
                         model (most detail on FOCUS); instructions, skills, the
                         goal, the last request and plan progress stay verbatim
  /models                list the provider's models
  /model NAME            switch model, keeping the conversation
  /clear                 start a new conversation
  /rewind                list the turns and the files each changed
  /rewind N [code|chat]  put the files and the conversation (or only the files,
                         or only the conversation) back to before turn N; a file
                         you changed since stops it (--force keeps a copy)
  /fork                  continue in a copy of this conversation; the original
                         stays in history as it is
  /help                  this help
  exit                   leave (also Ctrl-D, or Ctrl-C twice)`;

/** Parses a chat line; returns undefined for an ordinary message. */
export function parseSlashCommand(line: string): SlashCommand | undefined {
  const text = line.trim();
  if (text === "exit" || text === "quit" || text === "/exit" || text === "/quit")
    return { kind: "exit" };
  if (!text.startsWith("/")) return undefined;
  const [name = "", ...rest] = text.slice(1).split(/\s+/);
  const argument = rest.join(" ");
  switch (name.toLowerCase()) {
    case "mode":
      if (argument === "planning" || argument === "write") return { kind: "mode", mode: argument };
      return { kind: "unknown", text, message: "Usage: /mode planning|write" };
    case "planning":
    case "write":
      return { kind: "mode", mode: name.toLowerCase() as "planning" | "write" };
    case "approvals":
      if (argument === "") return { kind: "approvals", policy: undefined };
      if (argument === "untrusted" || argument === "on-escalation" || argument === "never")
        return { kind: "approvals", policy: argument };
      return {
        kind: "unknown",
        text,
        message: "Usage: /approvals [untrusted|on-escalation|never]",
      };
    // The old safety switches, kept working: an escalation needs a person in every mode now.
    case "safe":
    case "yolo":
      return { kind: "approvals", policy: "on-escalation" };
    case "status":
      return { kind: "status" };
    case "mcp":
      return { kind: "mcp" };
    case "skills":
      return { kind: "skills" };
    case "context":
      if (argument === "" || argument === "info") return { kind: "context", summary: false };
      if (argument === "summary") return { kind: "context", summary: true };
      return { kind: "unknown", text, message: "Usage: /context [summary]" };
    case "compact":
      return { kind: "compact", focus: argument };
    case "models":
      return { kind: "models" };
    case "model":
      return argument === ""
        ? { kind: "unknown", text, message: "Usage: /model NAME (see /models)" }
        : { kind: "model", name: argument };
    case "clear":
      return { kind: "clear" };
    case "rewind": {
      const parsed = parseRewindArguments(argument);
      return typeof parsed === "string" ? { kind: "unknown", text, message: parsed } : parsed;
    }
    case "fork":
      return argument === ""
        ? { kind: "fork" }
        : { kind: "unknown", text, message: "Usage: /fork (takes no arguments)" };
    case "help":
    case "?":
      return { kind: "help" };
    default:
      return {
        kind: "unknown",
        text,
        message: `Unknown command '/${name}'. Type /help for the list.`,
      };
  }
}

/** The prompt: `[PLANNING][ON-ESCALATION][ollama: llama3.2:3b] >>> `. */
export function formatPrompt(state: {
  mode: string;
  approvalPolicy: string;
  provider: string;
  model: string;
}): string {
  // The model name can come from the provider's server; the prompt is printed raw.
  return `[${state.mode.toUpperCase()}][${state.approvalPolicy.toUpperCase()}][${toTerminalSafeLine(state.provider)}: ${toTerminalSafeLine(state.model)}] >>> `;
}
