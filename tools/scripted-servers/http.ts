/**
 * What every scripted server shares: body reading, JSON answers, listening on 127.0.0.1,
 * closing with open connections, and the standalone command line.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Listens on 127.0.0.1 (an ephemeral port unless given) and resolves with the origin. */
export async function listenOnLoopback(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server, ending open connections (streams a test left hanging included). */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.closeAllConnections();
    server.close((error) => (error ? reject(error) : resolve()));
  });
}

/**
 * The standalone command line of a server: `--scenario NAME [--port N]`; prints what
 * `describe` returns as one JSON line once listening, stops on SIGTERM or SIGINT.
 */
export async function runStandalone<Scenario, Running extends { close(): Promise<void> }>(options: {
  readonly scenarios: Readonly<Record<string, Scenario>>;
  readonly start: (scenario: Scenario, port: number) => Promise<Running>;
  readonly describe: (running: Running) => object;
}): Promise<void> {
  const argument = (name: string) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const name = argument("scenario") ?? "echo";
  const scenario = options.scenarios[name];
  if (scenario === undefined) {
    process.stderr.write(
      `Unknown scenario '${name}'. Known: ${Object.keys(options.scenarios).join(", ")}\n`,
    );
    process.exit(2);
  }
  const running = await options.start(scenario, Number(argument("port") ?? "0"));
  process.stdout.write(`${JSON.stringify(options.describe(running))}\n`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
