// A third-party tool package, loaded by name the way the configuration names it, runs
// inside an agent: the notes tools of examples/notes-tools.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { Agent, isXzatomaError, loadToolPackage } from "@xzatoma/core";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "xz-package-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function lastToolText(options: LanguageModelV4CallOptions): string {
  const message = options.prompt.findLast((entry) => entry.role === "tool");
  const part = message?.role === "tool" ? message.content[0] : undefined;
  return part?.type === "tool-result" && part.output.type === "text" ? part.output.value : "";
}

function reply(parts: LanguageModelV4StreamPart[]) {
  return {
    stream: new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.enqueue({
          type: "finish",
          finishReason: { unified: "stop", raw: undefined },
          usage: {
            inputTokens: {
              total: 1,
              noCache: undefined,
              cacheRead: undefined,
              cacheWrite: undefined,
            },
            outputTokens: { total: 1, text: undefined, reasoning: undefined },
          },
        });
        controller.close();
      },
    }),
  };
}

describe("tool packages", () => {
  it("loads the example notes package by name and lets an agent use its tools", async () => {
    const tools = await loadToolPackage("@xzatoma/example-notes-tools", {
      context: { root, options: { directory: "journal" } },
      resolveFrom: here,
    });
    expect(tools.map((tool) => tool.name)).toEqual(["search_notes", "save_note"]);
    let call = 0;
    const model = new MockLanguageModelV4({
      doStream: async (options) => {
        call += 1;
        if (call === 1) {
          return reply([
            {
              type: "tool-call",
              toolCallId: "a",
              toolName: "save_note",
              input: JSON.stringify({ title: "Standup", body: "Fixed the build." }),
            },
          ]);
        }
        if (call === 2) {
          return reply([
            {
              type: "tool-call",
              toolCallId: "b",
              toolName: "search_notes",
              input: JSON.stringify({ query: "build" }),
            },
          ]);
        }
        return reply([{ type: "text-delta", id: "t", delta: `Found: ${lastToolText(options)}` }]);
      },
    });
    const agent = new Agent({ model, tools, approve: () => ({ approved: true }) });
    const result = await agent.run("Note what I did and find it again.");
    expect(result.text).toBe("Found: standup.md: # Standup / Fixed the build.");
    expect(await readFile(path.join(root, "journal", "standup.md"), "utf8")).toBe(
      "# Standup\n\nFixed the build.\n",
    );
  });

  it("names the package and the problem when a package is missing or breaks the contract", async () => {
    const failure = async (name: string) =>
      loadToolPackage(name, { context: { root, options: {} }, resolveFrom: here }).then(
        () => "loaded",
        (error: unknown) =>
          isXzatomaError(error) ? `${error.code}: ${error.message}` : String(error),
      );
    const missing = await failure("@acme/not-installed");
    expect(missing).toMatch(
      /^TOOL_PACKAGE_INVALID: Tool package '@acme\/not-installed': not found from .* \(never looked up in the workspace\); install it beside the configuration file/,
    );
    expect(missing).toContain(here);
    expect(await failure("@xzatoma/core")).toBe(
      "TOOL_PACKAGE_INVALID: Tool package '@xzatoma/core': it does not export a createTools(context) function.",
    );
  });
});
