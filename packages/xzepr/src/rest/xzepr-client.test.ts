import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startScriptedXzepr, type ScriptedXzepr } from "@xzatoma/scripted-servers/xzepr";
import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { afterEach, describe, expect, it } from "vitest";
import { checkXzeprEvent } from "../xzepr-event.js";
import { isXzeprApiError, XzeprApiError } from "./xzepr-api-error.js";
import { createXzeprClient } from "./xzepr-client.js";

const TOKEN = "xzepr-secret-token-4f9a";
let server: ScriptedXzepr | undefined;
const extraServers: Server[] = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const extra of extraServers.splice(0)) {
    extra.closeAllConnections();
    await new Promise<void>((resolve) => extra.close(() => resolve()));
  }
});

async function start(token?: string) {
  server = await startScriptedXzepr(token === undefined ? {} : { token });
  return server;
}

async function failureOf(promise: Promise<unknown>): Promise<XzeprApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof XzeprApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

const receiver = {
  name: "xzatoma-watcher",
  type: "xzatoma.watcher.result",
  version: "1.0.0",
  description: "Results of plans run by the XZatoma watcher",
  schema: { type: "object" },
};

describe("createXzeprClient against the scripted XZepr", () => {
  it("creates, reads, updates and deletes receivers, events and groups", async () => {
    const xzepr = await start(TOKEN);
    const client = createXzeprClient({ baseUrl: `${xzepr.url}/`, token: TOKEN });
    expect(await client.health()).toMatchObject({ status: "healthy", service: "xzepr" });

    const receiverId = await client.createReceiver(receiver);
    expect(receiverId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(await client.getReceiver(receiverId)).toMatchObject({ ...receiver, id: receiverId });
    await client.updateReceiver(receiverId, { description: "changed" });
    expect((await client.getReceiver(receiverId)).description).toBe("changed");

    const eventId = await client.createEvent({
      name: "build.success",
      version: "1.0.0",
      release: "1.0.0",
      platform_id: "local",
      package: "xzatoma-demo",
      description: "A build",
      payload: { plan: "{}" },
      success: true,
      event_receiver_id: receiverId,
    });
    expect(await client.getEvent(eventId)).toMatchObject({
      id: eventId,
      name: "build.success",
      success: true,
    });

    const groupId = await client.createGroup({
      name: "watchers",
      type: "xzatoma",
      version: "1.0.0",
      description: "Every watcher",
      enabled: true,
      event_receiver_ids: [receiverId],
    });
    await client.updateGroup(groupId, { enabled: false });
    expect(await client.getGroup(groupId)).toMatchObject({
      id: groupId,
      enabled: false,
      event_receiver_ids: [receiverId],
    });
    await client.deleteGroup(groupId);
    expect((await failureOf(client.getGroup(groupId))).reason).toBe("not_found");
    await client.deleteReceiver(receiverId);
    expect((await failureOf(client.getReceiver(receiverId))).status).toBe(404);

    const calls = xzepr.requests.map((request) => `${request.method} ${request.path}`);
    expect(calls.slice(0, 3)).toEqual([
      "GET /health",
      "POST /api/v1/receivers",
      `GET /api/v1/receivers/${receiverId}`,
    ]);
    const post = xzepr.requests[1]!;
    expect(post.headers["authorization"]).toBe(`Bearer ${TOKEN}`);
    expect(post.headers["content-type"]).toBe("application/json");
    expect(post.body).toEqual(receiver);
    // What XZepr publishes for these creations reads as XZepr events (system events included).
    expect(xzepr.published.map((event) => event["type"])).toEqual([
      "xzepr.event.receiver.created",
      "build.success",
      "xzepr.event.receiver.group.created",
    ]);
    for (const event of xzepr.published) expect(checkXzeprEvent(event).ok).toBe(true);
  });

  it("finds a receiver on the last of several pages, examining every page", async () => {
    const xzepr = await start();
    for (let index = 0; index < 260; index++)
      xzepr.addReceiver({ name: `other-${index}`, type: receiver.type });
    xzepr.addReceiver({ name: receiver.name, type: "something.else" });
    const wanted = xzepr.addReceiver({ name: receiver.name, type: receiver.type });
    const client = createXzeprClient({ baseUrl: xzepr.url });

    expect(await client.findOrCreateReceiver(receiver)).toEqual({ id: wanted, created: false });
    const lists = xzepr.requests.filter((request) => request.method === "GET");
    expect(lists.map((request) => [request.query["limit"], request.query["offset"]])).toEqual([
      ["100", "0"],
      ["100", "100"],
      ["100", "200"],
    ]);
    expect(xzepr.requests.some((request) => request.method === "POST")).toBe(false);

    const page = await client.listReceivers({ limit: 5, offset: 260 });
    expect(page.pagination).toEqual({ limit: 5, offset: 260, total: 262, has_more: false });
    expect(page.data.map((entry) => entry.id)).toContain(wanted);
  });

  it("creates the receiver after examining every page when none matches", async () => {
    const xzepr = await start();
    for (let index = 0; index < 250; index++)
      xzepr.addReceiver({ name: `other-${index}`, type: receiver.type });
    const client = createXzeprClient({ baseUrl: xzepr.url });
    const found = await client.findOrCreateReceiver(receiver);
    expect(found.created).toBe(true);
    expect(xzepr.receivers.get(found.id)).toMatchObject({
      name: receiver.name,
      type: receiver.type,
    });
    expect(
      xzepr.requests.map((request) => `${request.method} ${request.query["offset"] ?? ""}`),
    ).toEqual(["GET 0", "GET 100", "GET 200", "POST "]);
    expect(await client.findOrCreateReceiver(receiver)).toEqual({ id: found.id, created: false });
  });

  it("reports a refused token, a validation error and a framework refusal as XZEPR_API_ERROR with reason, status, method and path", async () => {
    const xzepr = await start(TOKEN);
    const wrong = createXzeprClient({ baseUrl: xzepr.url, token: "not-the-token" });
    const refused = await failureOf(wrong.listReceivers());
    expect(refused).toMatchObject({
      code: "XZEPR_API_ERROR",
      reason: "unauthorized",
      status: 401,
      method: "GET",
      path: "/api/v1/receivers",
    });
    expect(refused.message).toBe(
      "XZepr API GET /api/v1/receivers failed with HTTP 401 (unauthorized): Missing or invalid authentication token",
    );
    expect(isXzeprApiError(refused)).toBe(true);
    expect(isXzatomaError(refused)).toBe(true);
    expect(refused).toBeInstanceOf(XzatomaError);
    expect(isErrorCode(refused.code)).toBe(true);
    expect(refused.fields).toEqual({
      reason: "unauthorized",
      status: 401,
      method: "GET",
      path: "/api/v1/receivers",
    });
    const anonymous = createXzeprClient({ baseUrl: xzepr.url });
    expect((await failureOf(anonymous.createReceiver(receiver))).status).toBe(401);
    expect(xzepr.requests.at(-1)?.headers["authorization"]).toBeUndefined();

    const client = createXzeprClient({ baseUrl: xzepr.url, token: TOKEN });
    const invalid = await failureOf(client.createReceiver({ ...receiver, name: "  " }));
    expect(invalid).toMatchObject({
      reason: "validation_error",
      status: 400,
      method: "POST",
      path: "/api/v1/receivers",
    });
    expect(invalid.message).toBe(
      "XZepr API POST /api/v1/receivers failed with HTTP 400 (validation_error): Validation error in field 'name': Name cannot be empty",
    );
    const badId = await failureOf(
      client.createEvent({
        name: "n",
        version: "1",
        release: "1",
        platform_id: "p",
        package: "k",
        description: "",
        payload: {},
        success: true,
        event_receiver_id: "not-a-ulid",
      }),
    );
    expect(badId).toMatchObject({ reason: "validation_error", field: "event_receiver_id" });
    expect((await failureOf(client.getReceiver("nope"))).reason).toBe("invalid_id");
    const page = await failureOf(client.listReceivers({ limit: 0 }));
    expect(page.message).toContain("Limit must be between 1 and 1000");
    const partial = { name: "x" } as unknown as typeof receiver;
    const missing = await failureOf(client.createReceiver(partial));
    expect(missing).toMatchObject({ reason: "http_error", status: 422 });
    expect(missing.message).toContain("missing field `type`");
  });

  it("fails a call that gets a 500, then succeeds once the fault is gone", async () => {
    const xzepr = await start();
    const client = createXzeprClient({ baseUrl: xzepr.url });
    xzepr.failNext(1);
    expect(await failureOf(client.health())).toMatchObject({
      reason: "internal_error",
      status: 500,
    });
    xzepr.failNext(1, { status: 502, body: "<html>Bad gateway</html>" });
    expect((await failureOf(client.health())).message).toBe(
      "XZepr API GET /health failed with HTTP 502: <html>Bad gateway</html>",
    );
    xzepr.failNext(1, { status: 200, body: { data: 42 } });
    expect(await failureOf(client.createReceiver(receiver))).toMatchObject({
      reason: "invalid_response",
      status: 200,
    });
    expect(await client.health()).toMatchObject({ status: "healthy" });
  });

  it("gives up on a server that never answers after timeoutMs, and honours the caller's signal", async () => {
    const xzepr = await start(TOKEN);
    xzepr.hangNext(2);
    const client = createXzeprClient({ baseUrl: xzepr.url, token: TOKEN, timeoutMs: 200 });
    const timedOut = await failureOf(client.listReceivers());
    expect(timedOut).toMatchObject({ reason: "timeout", status: undefined, method: "GET" });
    expect(timedOut.message).toBe(
      `XZepr API GET /api/v1/receivers got no answer from ${xzepr.url} within 200 ms.`,
    );

    const patient = createXzeprClient({ baseUrl: xzepr.url, token: TOKEN, timeoutMs: 60_000 });
    const controller = new AbortController();
    const pending = failureOf(patient.health({ signal: controller.signal }));
    controller.abort();
    expect((await pending).reason).toBe("aborted");
  });

  it("says when XZepr cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = createXzeprClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN });
    const failure = await failureOf(client.health());
    expect(failure.reason).toBe("network_error");
    expect(failure.message).toMatch(
      new RegExp(
        `^XZepr API GET /health could not reach XZepr at http://127\\.0\\.0\\.1:${port}: `,
      ),
    );
  });

  it("never puts the token in an error message, even when the server echoes it", async () => {
    const echo = createServer((request, response) => {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          error: "bad_token",
          message: `token ${request.headers.authorization ?? ""} refused`,
        }),
      );
    });
    extraServers.push(echo);
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const client = createXzeprClient({ baseUrl: url, token: TOKEN });
    const echoed = await failureOf(client.getEvent("01K0XZEPR0SYSTEM0EVENT0001"));
    expect(echoed.message).toBe(
      "XZepr API GET /api/v1/events/01K0XZEPR0SYSTEM0EVENT0001 failed with HTTP 400 (bad_token): token Bearer [redacted] refused",
    );

    const xzepr = await start(TOKEN);
    xzepr.hangNext(1);
    const messages = [
      echoed,
      await failureOf(client.createReceiver(receiver)),
      await failureOf(
        createXzeprClient({ baseUrl: xzepr.url, token: TOKEN, timeoutMs: 200 }).health(),
      ),
      await failureOf(createXzeprClient({ baseUrl: xzepr.url, token: "wrong" }).listReceivers()),
    ].map((error) => `${error.message} ${String(error.cause ?? "")} ${JSON.stringify(error)}`);
    for (const message of messages) expect(message).not.toContain(TOKEN);
  });
});
