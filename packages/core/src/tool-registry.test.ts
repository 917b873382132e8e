import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isXzatomaError } from "./errors.js";
import { defineTool } from "./tool.js";
import { createToolRegistry } from "./tool-registry.js";
import { toolResultToModelText, toolSuccess } from "./tool-result.js";

const signal = new AbortController().signal;

describe("tool registry", () => {
  it("publishes JSON Schema specifications of its tools", () => {
    const registry = createToolRegistry();
    registry.register(
      defineTool({
        name: "greet",
        description: "Greets.",
        inputSchema: z
          .object({
            name: z.string().describe("who"),
            loud: z.boolean().default(false),
            times: z.number().int().min(1).optional(),
            offset: z.number().int().optional(),
          })
          .strict(),
        access: "read",
        execute: async ({ name }) => toolSuccess(name),
      }),
    );
    expect(registry.specifications()[0]).toMatchObject({
      name: "greet",
      inputSchema: {
        type: "object",
        properties: { name: { type: "string", description: "who" }, loud: { type: "boolean" } },
        required: ["name"],
        additionalProperties: false,
      },
    });
    // Sent with every request: no `$schema` URI, no safe-integer bounds that say nothing.
    expect(registry.specifications()[0]?.inputSchema).not.toHaveProperty("$schema");
    expect(registry.specifications()[0]?.inputSchema["properties"]).toMatchObject({
      times: { type: "integer", minimum: 1 },
      offset: { type: "integer" },
    });
    expect(JSON.stringify(registry.specifications())).not.toMatch(/9007199254740991/);
  });

  it("sends a tool's ready-made model schema, and builds a lazy zod schema only to validate", async () => {
    let built = 0;
    const modelInputSchema = { type: "object", properties: { text: { type: "string" } } };
    const tool = defineTool({
      name: "echo",
      description: "Repeats text.",
      inputSchema: () => {
        built += 1;
        return z.object({ text: z.string() }).strict();
      },
      modelInputSchema,
      access: "read",
      execute: async ({ text }) => toolSuccess(text),
    });
    const registry = createToolRegistry();
    registry.register(tool);
    const [specification] = registry.specifications();
    expect(specification?.inputSchema).toEqual(modelInputSchema);
    expect(specification?.inputSchema).not.toBe(modelInputSchema);
    // One frozen copy, shared by every registry that offers the tool: a caller can change
    // neither the tool's schema nor what another registry offers.
    expect(Object.isFrozen(specification?.inputSchema["properties"])).toBe(true);
    expect(() => {
      (specification?.inputSchema as Record<string, unknown>)["type"] = "string";
    }).toThrow(TypeError);
    const another = createToolRegistry();
    another.register(tool);
    expect(another.specifications()[0]?.inputSchema).toBe(specification?.inputSchema);
    expect(Object.isFrozen(modelInputSchema)).toBe(false);
    expect(built).toBe(0);
    const signal = new AbortController().signal;
    const refused = await registry.execute(
      { toolCallId: "1", toolName: "echo", input: JSON.stringify({ text: 1 }) },
      { signal },
    );
    expect(refused.success).toBe(false);
    const echoed = await registry.execute(
      { toolCallId: "2", toolName: "echo", input: JSON.stringify({ text: "hi" }) },
      { signal },
    );
    expect(echoed.output).toBe("hi");
    expect(built).toBe(1);
  });

  it("refuses a duplicate name with a coded error and rejects invalid names", () => {
    const registry = createToolRegistry();
    const tool = defineTool({
      name: "a",
      description: "",
      inputSchema: z.object({}),
      access: "read",
      execute: async () => toolSuccess(""),
    });
    registry.register(tool);
    let caught: unknown;
    try {
      registry.register(tool);
    } catch (error) {
      caught = error;
    }
    expect(isXzatomaError(caught) && caught.code).toBe("TOOL_ALREADY_REGISTERED");
    expect(() =>
      defineTool({
        name: "bad name",
        description: "",
        inputSchema: z.object({}),
        access: "read",
        execute: async () => toolSuccess(""),
      }),
    ).toThrow(/invalid/);
  });

  it("caps output on a character boundary and records the original size", async () => {
    const registry = createToolRegistry({ maxOutputBytes: 10 });
    registry.register(
      defineTool({
        name: "big",
        description: "",
        inputSchema: z.object({}),
        access: "read",
        execute: async () => toolSuccess("aaaaaaaaa€€€"),
      }),
    );
    const result = await registry.execute(
      { toolCallId: "1", toolName: "big", input: "{}" },
      { signal },
    );
    expect(result.output).toBe("aaaaaaaaa");
    expect(result.truncated).toBe(true);
    expect(result.metadata).toMatchObject({ originalBytes: 18, shownBytes: 9 });
    expect(toolResultToModelText(result)).toContain("[Output truncated: showed 9 of 18 bytes");
  });

  it("stops a tool that outlives its timeout and tells the model", async () => {
    let sawAbort = false;
    const registry = createToolRegistry({ defaultTimeoutMs: 20 });
    registry.register(
      defineTool({
        name: "stuck",
        description: "",
        inputSchema: z.object({}),
        access: "read",
        execute: (_input, context) =>
          new Promise(() => context.signal.addEventListener("abort", () => (sawAbort = true))),
      }),
    );
    const result = await registry.execute(
      { toolCallId: "1", toolName: "stuck", input: "" },
      { signal },
    );
    expect(result.success).toBe(false);
    expect(result.error).toContain("did not finish within 20 ms");
    expect(sawAbort).toBe(true);
  });
});

describe("tool judgement and approval", () => {
  const writeTool = (verdict: "allow" | "confirm" | "block") =>
    defineTool({
      name: "touch",
      description: "",
      inputSchema: z.object({ path: z.string() }),
      access: "write",
      assess: ({ path }) => ({ verdict, reason: `touching ${path}`, summary: `touch ${path}` }),
      execute: async ({ path }) => toolSuccess(`touched ${path}`),
    });

  it("never runs or asks about a blocked call, and audits the refusal", async () => {
    const registry = createToolRegistry();
    registry.register(writeTool("block"));
    const asked: string[] = [];
    const audit: unknown[] = [];
    const result = await registry.execute(
      { toolCallId: "1", toolName: "touch", input: '{"path":"x"}' },
      {
        signal,
        approve: (request) => (asked.push(request.toolName), { approved: true }),
        audit: (entry) => audit.push(entry),
      },
    );
    expect(result.error).toBe(
      "Refused: touching x. This call will not run in any mode; do not retry it.",
    );
    expect(asked).toEqual([]);
    expect(audit).toEqual([
      {
        kind: "decision",
        toolCallId: "1",
        toolName: "touch",
        subject: "touch x",
        verdict: "block",
        approved: false,
        reason: "touching x",
      },
    ]);
  });

  it("asks with the tool's judgement and summary, and audits decision and execution", async () => {
    const registry = createToolRegistry();
    registry.register(writeTool("confirm"));
    const audit: { kind: string }[] = [];
    let summary: string | undefined;
    const result = await registry.execute(
      { toolCallId: "2", toolName: "touch", input: '{"path":"y"}' },
      {
        signal,
        approve: (request) => ((summary = request.summary), { approved: true }),
        audit: (entry) => audit.push(entry),
      },
    );
    expect(result.output).toBe("touched y");
    expect(summary).toBe("touch y");
    expect(audit.map((entry) => entry.kind)).toEqual(["decision", "execution"]);
  });

  it("treats a judgement that throws as a block", async () => {
    const registry = createToolRegistry();
    registry.register(
      defineTool({
        name: "shaky",
        description: "",
        inputSchema: z.object({}),
        access: "read",
        assess: () => {
          throw new Error("parser crashed");
        },
        execute: async () => toolSuccess("ran"),
      }),
    );
    const result = await registry.execute(
      { toolCallId: "3", toolName: "shaky", input: "{}" },
      { signal },
    );
    expect(result.error).toBe(
      "Refused: the safety check failed: parser crashed. This call will not run in any mode; do not retry it.",
    );
  });

  it("asks with the tool's reason as a sentence, so an approver's addition reads on", async () => {
    const registry = createToolRegistry();
    registry.register(writeTool("confirm"));
    const reasons: string[] = [];
    const result = await registry.execute(
      { toolCallId: "6", toolName: "touch", input: '{"path":"z"}' },
      {
        signal,
        // What the safety package's handler does in restricted autonomous mode.
        approve: (request) => {
          reasons.push(request.reason);
          return {
            approved: false,
            reason: `${request.reason} It needs a person's approval, and restricted autonomous mode has no one to ask.`,
          };
        },
      },
    );
    expect(reasons).toEqual(["touching z."]);
    expect(result.error).toBe(
      "The call to 'touch' was not approved: touching z. It needs a person's approval, and restricted autonomous mode has no one to ask. Do not retry it; continue another way or explain what you need.",
    );
  });

  it("words a refusal made of sentences as sentences, and a short one in parentheses", async () => {
    const registry = createToolRegistry();
    registry.register(writeTool("confirm"));
    const refuse = async (reason: string | undefined) =>
      (
        await registry.execute(
          { toolCallId: "4", toolName: "touch", input: '{"path":"z"}' },
          { signal, approve: () => ({ approved: false, ...(reason ? { reason } : {}) }) },
        )
      ).error;
    expect(
      await refuse(
        "touching z. It needs a person's approval, and restricted autonomous mode has no one to ask; do it another way, or the user can allow it by running in full autonomous mode.",
      ),
    ).toBe(
      "The call to 'touch' was not approved: touching z. It needs a person's approval, and restricted autonomous mode has no one to ask; do it another way, or the user can allow it by running in full autonomous mode. Do not retry it; continue another way or explain what you need.",
    );
    expect(await refuse("the person said no.")).toBe(
      "The call to 'touch' was not approved (the person said no). Do not retry it; continue another way or explain what you need.",
    );
    expect(await refuse(undefined)).toBe(
      "The call to 'touch' was not approved (refused). Do not retry it; continue another way or explain what you need.",
    );
    const nobody = await registry.execute(
      { toolCallId: "5", toolName: "touch", input: '{"path":"z"}' },
      { signal },
    );
    expect(nobody.error).toBe(
      "The call to 'touch' was not approved (no one is available to approve it). Do not retry it; continue another way or explain what you need.",
    );
  });
});

describe("edited approvals", () => {
  const echoTool = defineTool({
    name: "shell",
    description: "",
    inputSchema: z.object({ command: z.string() }).strict(),
    access: "execute",
    assess: ({ command }) =>
      command.includes("rm")
        ? { verdict: "block", reason: `'${command}' deletes files.` }
        : { verdict: "confirm", reason: "runs a command" },
    execute: async ({ command }) => toolSuccess(`ran ${command}`),
  });

  it("runs the input the person edited, judged again", async () => {
    const registry = createToolRegistry();
    registry.register(echoTool);
    const result = await registry.execute(
      { toolCallId: "1", toolName: "shell", input: '{"command":"ls -la /"}' },
      { signal, approve: () => ({ approved: true, editedInput: { command: "ls -la" } }) },
    );
    expect(result.output).toBe("ran ls -la");
  });

  it("still refuses an edit that the tool blocks", async () => {
    const registry = createToolRegistry();
    registry.register(echoTool);
    const result = await registry.execute(
      { toolCallId: "1", toolName: "shell", input: '{"command":"ls"}' },
      { signal, approve: () => ({ approved: true, editedInput: { command: "rm -rf /" } }) },
    );
    expect(result.error).toBe("Refused: 'rm -rf /' deletes files. The edited call will not run.");
  });
});

describe("calls only a person may approve", () => {
  let ran: { approvedByPerson: boolean | undefined }[] = [];
  const guarded = defineTool({
    name: "write_agents",
    description: "",
    inputSchema: z.object({ path: z.string() }).strict(),
    access: "write",
    assess: ({ path }) => ({
      verdict: "confirm",
      reason: `${path} steers the next session`,
      requiresPerson: true,
    }),
    execute: async (_input, context) => {
      ran.push({ approvedByPerson: context.approvedByPerson });
      return toolSuccess("written");
    },
  });

  it("refuses an approval that did not come from a person, and says so", async () => {
    ran = [];
    const registry = createToolRegistry();
    registry.register(guarded);
    const requests: unknown[] = [];
    const result = await registry.execute(
      { toolCallId: "1", toolName: "write_agents", input: '{"path":"AGENTS.md"}' },
      { signal, approve: (request) => (requests.push(request), { approved: true }) },
    );
    expect(requests).toMatchObject([{ requiresPerson: true }]);
    expect(result.error).toBe(
      "The call to 'write_agents' was not approved (only a person's explicit yes can allow it, and none was given: AGENTS.md steers the next session). Do not retry it; continue another way or explain what you need.",
    );
    expect(ran).toEqual([]);
  });

  it("runs it with a person's yes and tells the tool who approved", async () => {
    ran = [];
    const registry = createToolRegistry();
    registry.register(guarded);
    const result = await registry.execute(
      { toolCallId: "1", toolName: "write_agents", input: '{"path":"AGENTS.md"}' },
      { signal, approve: () => ({ approved: true, byPerson: true }) },
    );
    expect(result.output).toBe("written");
    expect(ran).toEqual([{ approvedByPerson: true }]);
  });

  it("ends each sentence once when a reason is a sentence already", async () => {
    const registry = createToolRegistry();
    registry.register(
      defineTool({
        name: "hook",
        description: "",
        inputSchema: z.object({ path: z.string() }).strict(),
        access: "write",
        assess: ({ path }) => ({
          verdict: "confirm",
          reason: `${path} runs on every commit.`,
          ...(path.startsWith(".git/") ? { requiresPerson: true } : {}),
        }),
        execute: async () => toolSuccess("written"),
      }),
    );
    const unattended = await registry.execute(
      { toolCallId: "1", toolName: "hook", input: '{"path":".git/hooks/pre-commit"}' },
      { signal, approve: () => ({ approved: true }) },
    );
    expect(unattended.error).toBe(
      "The call to 'hook' was not approved (only a person's explicit yes can allow it, and none was given: .git/hooks/pre-commit runs on every commit). Do not retry it; continue another way or explain what you need.",
    );
    const edited = await registry.execute(
      { toolCallId: "2", toolName: "hook", input: '{"path":"a"}' },
      { signal, approve: () => ({ approved: true, editedInput: { path: ".git/hooks/b" } }) },
    );
    expect(edited.error).toBe(
      "Refused: only a person's explicit yes can allow the edited call: .git/hooks/b runs on every commit.",
    );
  });
});
