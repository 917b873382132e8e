import { toolFailure, toolSuccess, type ToolResult } from "@xzatoma/core";

/** One content block of an MCP tool result, as far as XZatoma reads it. */
export interface McpContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly resource?: {
    readonly uri?: string;
    readonly mimeType?: string;
    readonly text?: string;
    readonly blob?: string;
  };
}

/** An MCP `tools/call` result, as far as XZatoma reads it. */
export interface McpCallResult {
  readonly content?: readonly McpContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  /** The result of servers on the 2024-10-07 protocol. */
  readonly toolResult?: unknown;
}

function base64Bytes(data: string | undefined): number {
  if (!data) return 0;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** A block as text the model reads: binary data is described, never pasted. */
function blockText(block: McpContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text ?? "";
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType ?? "of unknown type"}, ${base64Bytes(block.data)} bytes, not shown]`;
    case "resource": {
      const resource = block.resource ?? {};
      if (typeof resource.text === "string")
        return `[resource ${resource.uri ?? ""}]\n${resource.text}`;
      return `[resource ${resource.uri ?? ""} (${resource.mimeType ?? "binary"}, ${base64Bytes(resource.blob)} bytes), not shown]`;
    }
    case "resource_link":
      return `[resource link ${block.uri ?? ""}${block.name ? ` (${block.name})` : ""}]`;
    default:
      return `[${block.type} content, not shown]`;
  }
}

/**
 * Turns an MCP tool result into XZatoma's: the text of its blocks joined by blank lines
 * (images and audio described by type and size, embedded resources by their text), the
 * structured content as JSON when no block carries text, and `isError` as a failure whose
 * error is the server's text. The registry applies the output cap afterwards.
 */
export function mapCallResult(result: McpCallResult, toolName: string): ToolResult {
  const blocks = result.content ?? [];
  let text = blocks
    .map(blockText)
    .filter((part) => part !== "")
    .join("\n\n");
  if (text === "" && result.structuredContent !== undefined)
    text = JSON.stringify(result.structuredContent, null, 2);
  if (text === "" && result.toolResult !== undefined)
    text = JSON.stringify(result.toolResult, null, 2);
  const metadata = { contentBlocks: blocks.length };
  if (result.isError === true) {
    return toolFailure(`'${toolName}' reported an error: ${text.trim() || "no message"}`, {
      ...metadata,
      serverError: true,
    });
  }
  return toolSuccess(text, metadata);
}
