import path from "node:path";
import type { ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";

/** The ACP kind of each built-in tool, so an editor picks the right icon; others are `other`. */
const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: "read",
  file_metadata: "read",
  plan: "read",
  diff_files: "read",
  list_directory: "search",
  find_path: "search",
  grep: "search",
  write_file: "edit",
  edit_file: "edit",
  create_directory: "edit",
  copy_path: "edit",
  delete_path: "delete",
  move_path: "move",
  terminal: "execute",
  fetch: "fetch",
  subagent: "think",
  parallel_subagent: "think",
};

/** The ACP tool kind of a tool. */
export function toolKind(toolName: string): ToolKind {
  return KINDS[toolName] ?? "other";
}

function field(input: unknown, name: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

/** A short title for a call: the tool and what it works on (`read_file src/a.ts`). */
export function toolTitle(toolName: string, input: unknown): string {
  const subject =
    field(input, "command") ??
    field(input, "url") ??
    (field(input, "source") && field(input, "destination")
      ? `${field(input, "source")} -> ${field(input, "destination")}`
      : undefined) ??
    field(input, "path") ??
    field(input, "pattern");
  const title = subject ? `${toolName} ${subject}` : toolName;
  return title.length > 120 ? `${title.slice(0, 119)}…` : title;
}

/** The files a call touches, as absolute paths under the workspace (the editor can follow them). */
export function toolLocations(root: string, input: unknown): ToolCallLocation[] {
  const locations: ToolCallLocation[] = [];
  for (const name of ["path", "source", "destination"]) {
    const value = field(input, name);
    if (value === undefined || value.includes("\0")) continue;
    const absolute = path.resolve(root, value);
    const line = (input as Record<string, unknown>)["start_line"];
    locations.push({
      path: absolute,
      ...(name === "path" && typeof line === "number" ? { line } : {}),
    });
  }
  return locations;
}
