// With a redactor, nothing secret reaches XZepr in a request body, and an error that
// quotes XZepr's answer quotes it redacted: checked against the scripted XZepr over HTTP.
import { startScriptedXzepr, type ScriptedXzepr } from "@xzatoma/scripted-servers/xzepr";
import { afterEach, describe, expect, it } from "vitest";
import { XzeprApiError } from "./xzepr-api-error.js";
import { createXzeprClient } from "./xzepr-client.js";

const CANARY = "canary-Gx2mB7qW5tN9";
const redact = (text: string) => text.split(CANARY).join("[REDACTED]");
let server: ScriptedXzepr | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("createXzeprClient({ redact })", () => {
  it("sends every string of a body redacted, keys and other values kept", async () => {
    server = await startScriptedXzepr();
    const client = createXzeprClient({ baseUrl: server.url, redact });
    const receiverId = server.addReceiver({
      name: "xzatoma-watcher",
      type: "xzatoma.watcher.result",
    });
    await client.createEvent({
      name: "xzatoma.watcher.result",
      version: "1.0.0",
      release: "1.0.0",
      platform_id: "xzatoma",
      package: "xzatoma-watcher",
      description: `Plan failed: password ${CANARY} rejected`,
      payload: { answer: `found ${CANARY}`, turns: 2, nested: [{ error: CANARY }] },
      success: false,
      event_receiver_id: receiverId,
    });
    const sent = server.requests.find((request) => request.method === "POST");
    expect(JSON.stringify(sent?.body)).not.toContain(CANARY);
    expect(sent?.body).toMatchObject({
      description: "Plan failed: password [REDACTED] rejected",
      payload: { answer: "found [REDACTED]", turns: 2, nested: [{ error: "[REDACTED]" }] },
    });
  });

  it("quotes an error answer redacted", async () => {
    server = await startScriptedXzepr();
    server.failNext(1, { status: 500, body: `upstream said ${CANARY}` });
    const client = createXzeprClient({ baseUrl: server.url, redact });
    const failure = await client.health().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(XzeprApiError);
    expect((failure as XzeprApiError).message).toContain("upstream said [REDACTED]");
  });
});
