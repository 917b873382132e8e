// A failed tool's error may quote a command's output: with `redact`, the span's status
// message holds no secret.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, defineTool, toolFailure } from "@xzatoma/core";
import { scriptedModel } from "@xzatoma/scripted-servers/replies-model";
import { createTestSdk } from "./__fixtures__/telemetry-sdk.js";
import { createRunTelemetry } from "./run-telemetry.js";

const CANARY = "canary-Tn5pW9xR3mJ2";

const failing = defineTool({
  name: "psql",
  description: "Fails, quoting what the command printed.",
  inputSchema: z.object({}).strict(),
  access: "read",
  execute: async () =>
    toolFailure(`exit code 2\npsql: connection to db failed: password ${CANARY} rejected`),
});

describe("createRunTelemetry({ redact })", () => {
  it("redacts a failed tool's error in its span's status", async () => {
    const sdk = createTestSdk();
    const agent = new Agent({
      model: scriptedModel((call) =>
        call === 0 ? { toolCalls: [{ name: "psql", input: {} }] } : { text: "It failed." },
      ),
      tools: [failing],
    });
    const telemetry = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "ollama",
      model: "llama3.2",
      redact: (text) => text.split(CANARY).join("[REDACTED]"),
    });
    await agent.run("go", { onEvent: (event) => telemetry.onEvent(event) });
    const call = sdk.span("execute_tool psql");
    expect(call.status.message).toContain("password [REDACTED] rejected");
    expect(
      JSON.stringify(sdk.spans().map((span) => [span.name, span.status, span.attributes])),
    ).not.toContain(CANARY);
  });
});
