// A headless Chromium driven over the DevTools protocol (on 127.0.0.1), for tests that
// open a page as a person would: where the system has `chromium` (Debian's package).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The Chromium binary on PATH, or undefined. */
export function findChromium(): string | undefined {
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
    if (found.status === 0 && found.stdout.trim() !== "") return found.stdout.trim();
  }
  return undefined;
}

/** One page in a headless browser. */
export interface HeadlessPage {
  /** Evaluates `expression` in the page and returns its value (JSON-able). */
  evaluate<T>(expression: string): Promise<T>;
  /** Every URL the page requested, the document included. */
  readonly requests: readonly string[];
  /** A PNG of the page. */
  screenshot(): Promise<Buffer>;
  close(): Promise<void>;
}

/** Opens `url` in a new headless Chromium and waits for its load event. */
export async function openHeadless(binary: string, url: string): Promise<HeadlessPage> {
  const profile = mkdtempSync(path.join(tmpdir(), "xz-chromium-"));
  const browser: ChildProcess = spawn(
    binary,
    [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = "";
    browser.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (found?.[1]) resolve(found[1]);
    });
    browser.on("exit", (code) => reject(new Error(`chromium exited (${String(code)}): ${text}`)));
  });
  const socket = new WebSocket(endpoint);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 0;
  const pending = new Map<number, (message: Record<string, unknown>) => void>();
  const listeners: ((message: Record<string, unknown>) => void)[] = [];
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as Record<string, unknown>;
    const id = message["id"];
    if (typeof id === "number") pending.get(id)?.(message);
    else for (const listener of listeners) listener(message);
  });
  const send = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, (message) => {
        pending.delete(id);
        if (message["error"]) reject(new Error(`${method}: ${JSON.stringify(message["error"])}`));
        else resolve((message["result"] ?? {}) as Record<string, unknown>);
      });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  const { targetId } = (await send("Target.createTarget", { url: "about:blank" })) as {
    targetId: string;
  };
  const { sessionId } = (await send("Target.attachToTarget", { targetId, flatten: true })) as {
    sessionId: string;
  };
  const requests: string[] = [];
  const loaded = new Promise<void>((resolve) => {
    listeners.push((message) => {
      if (message["sessionId"] !== sessionId) return;
      if (message["method"] === "Network.requestWillBeSent") {
        requests.push((message["params"] as { request: { url: string } }).request.url);
      }
      if (message["method"] === "Page.loadEventFired") resolve();
    });
  });
  await send("Network.enable", {}, sessionId);
  await send("Page.enable", {}, sessionId);
  await send("Page.navigate", { url }, sessionId);
  await loaded;
  return {
    requests,
    async evaluate<T>(expression: string) {
      const result = (await send(
        "Runtime.evaluate",
        { expression, returnByValue: true, awaitPromise: true },
        sessionId,
      )) as { result: { value: T }; exceptionDetails?: unknown };
      if (result.exceptionDetails) throw new Error(JSON.stringify(result.exceptionDetails));
      return result.result.value;
    },
    async screenshot() {
      const { data } = (await send("Page.captureScreenshot", { format: "png" }, sessionId)) as {
        data: string;
      };
      return Buffer.from(data, "base64");
    },
    async close() {
      socket.close();
      const exited = new Promise((resolve) => browser.once("exit", resolve));
      if (browser.pid !== undefined) process.kill(browser.pid);
      await exited;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
