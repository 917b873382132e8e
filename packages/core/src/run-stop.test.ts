import { describe, expect, it } from "vitest";
import { z } from "zod";
import { replies } from "@xzatoma/scripted-servers/replies-model";
import { isLimitStop } from "./agent-limits.js";
import { RunStop } from "./agent-run.js";
import { Agent } from "./agent.js";
import { defineTool } from "./tool.js";
import { toolSuccess } from "./tool-result.js";

describe("a caller that stops a run with its own reason", () => {
  it("ends the run with that reason (a shared quota), not aborted, and the run stays usable", async () => {
    const controller = new AbortController();
    const spend = defineTool({
      name: "spend",
      description: "Uses up the budget.",
      inputSchema: z.object({}).strict(),
      access: "read",
      execute: async () => {
        controller.abort(new RunStop("quota"));
        return toolSuccess("spent");
      },
    });
    const agent = new Agent({
      model: replies({ toolCalls: [{ name: "spend", input: {} }] }, { text: "never asked" }),
      tools: [spend],
    });
    const result = await agent.run("go", { signal: controller.signal });
    expect(result.stopReason).toBe("quota");
    expect(isLimitStop(result.stopReason)).toBe(true);
    expect(result.turns).toBe(1);
  });

  it("still reports a plain abort as aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const agent = new Agent({ model: replies({ text: "hi" }) });
    expect((await agent.run("go", { signal: controller.signal })).stopReason).toBe("aborted");
  });
});
