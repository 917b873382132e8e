// A real Apache Kafka broker for tests: tools/kafka/start.sh on a free port of 127.0.0.1 with
// a private data directory, stopped and removed again by stop(). Starting one takes seconds
// (a JVM), so start it once per test file or project: in a `beforeAll` with a generous
// timeout, or in a vitest `globalSetup` that hands `bootstrap` to the tests with `provide`.
//
//   let broker: TestBroker;
//   beforeAll(async () => { broker = await startTestBroker(); }, 240_000);
//   afterAll(() => broker?.stop(), 120_000);
//
// With `{ security: true }` the broker also has SASL_PLAINTEXT, SSL and SASL_SSL listeners
// (tools/kafka/start.sh's KAFKA_SECURITY=on): `broker.security` has their bootstrap addresses,
// the user and password known to PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512, and the PEM file of
// the CA that signed the broker's certificate. `bootstrap` stays PLAINTEXT.
//
// The first start on a machine downloads the broker's jars through Maven (bash tools/test.sh
// does that before the tests); later ones use the cache in .cache/kafka.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const KAFKA_TOOLS = path.resolve(import.meta.dirname, "..", "kafka");

/** A running broker of {@link startTestBroker}. */
export interface TestBroker {
  /** `127.0.0.1:PORT`, for a client's `brokers`. */
  readonly bootstrap: string;
  readonly port: number;
  /** The secured listeners and their credentials, when started with `security: true`. */
  readonly security?: TestBrokerSecurity;
  /** Stops the broker cleanly and deletes its data. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILLs the broker, as a crash would; its data stays, so {@link restart} resumes it. */
  kill(): Promise<void>;
  /** Stops the broker (cleanly, unless it is already gone) and starts it again on the same port and data. */
  restart(): Promise<void>;
}

/** The listeners of a broker started with `security: true`, each `127.0.0.1:PORT`. */
export interface TestBrokerSecurity {
  /** SASL without TLS: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512. */
  readonly saslPlaintext: string;
  /** TLS, no client certificate. */
  readonly ssl: string;
  /** TLS and SASL: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512. */
  readonly saslSsl: string;
  /** The SASL user, known to all three mechanisms. */
  readonly username: string;
  readonly password: string;
  /** PEM file of the CA that signed the broker's certificate (for 127.0.0.1 and localhost). */
  readonly caFile: string;
}

/** Options of {@link startTestBroker}. */
export interface TestBrokerOptions {
  /** Broker version; default the one tools/kafka/start.sh pins. */
  readonly version?: string;
  /** Adds SASL_PLAINTEXT, SSL and SASL_SSL listeners (see {@link TestBrokerSecurity}). Default false. */
  readonly security?: boolean;
  /** Seconds start.sh waits for the broker to serve. Default 180. */
  readonly startTimeoutSeconds?: number;
}

/** A TCP port free on 127.0.0.1 right now (bound to :0 and closed again). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function runScript(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "bash",
      [path.join(KAFKA_TOOLS, script), ...args],
      { env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`tools/kafka/${script} failed: ${error.message}\n${stderr}`));
          return;
        }
        resolve(stdout);
      },
    );
  });
}

/** What start.sh wrote to WORK/security.env (KEY=VALUE lines). */
function readSecurity(work: string): TestBrokerSecurity {
  const values = new Map<string, string>();
  for (const line of readFileSync(path.join(work, "security.env"), "utf8").split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) values.set(line.slice(0, at), line.slice(at + 1));
  }
  const value = (key: string) => {
    const found = values.get(key);
    if (!found) throw new Error(`tools/kafka/start.sh wrote no ${key} to security.env`);
    return found;
  };
  return {
    saslPlaintext: value("KAFKA_SASL_PLAINTEXT_BOOTSTRAP"),
    ssl: value("KAFKA_SSL_BOOTSTRAP"),
    saslSsl: value("KAFKA_SASL_SSL_BOOTSTRAP"),
    username: value("KAFKA_SECURITY_USER"),
    password: value("KAFKA_SECURITY_PASSWORD"),
    caFile: value("KAFKA_SECURITY_CA_FILE"),
  };
}

/**
 * Starts a broker on a free port of 127.0.0.1 (controller port free too) with its own data
 * directory under the OS temp directory, and resolves once it answers metadata requests.
 * A port taken between choosing and binding is retried with another. When the test process
 * exits without calling `stop()`, the broker is killed and its directory removed.
 */
export async function startTestBroker(options: TestBrokerOptions = {}): Promise<TestBroker> {
  const work = mkdtempSync(path.join(tmpdir(), "xz-kafka-"));
  // start.sh runs the readiness probe with `node`: the one running these tests.
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
    KAFKA_WORK: work,
    KAFKA_START_TIMEOUT: String(options.startTimeoutSeconds ?? 180),
  };
  if (options.version) baseEnv.KAFKA_VERSION = options.version;
  // Explicit, so a KAFKA_SECURITY in the environment changes no test broker.
  baseEnv.KAFKA_SECURITY = options.security ? "on" : "off";

  let env: NodeJS.ProcessEnv = baseEnv;
  let bootstrap = "";
  let lastError: unknown;
  for (let attempt = 0; attempt < 3 && !bootstrap; attempt += 1) {
    const ports = [await freePort()];
    const count = options.security ? 5 : 2;
    while (ports.length < count) {
      const next = await freePort();
      if (!ports.includes(next)) ports.push(next);
    }
    const [port, controller, saslPlaintext, ssl, saslSsl] = ports.map(String);
    env = {
      ...baseEnv,
      KAFKA_PORT: port,
      KAFKA_CONTROLLER_PORT: controller,
      ...(options.security
        ? {
            KAFKA_SASL_PLAINTEXT_PORT: saslPlaintext,
            KAFKA_SSL_PORT: ssl,
            KAFKA_SASL_SSL_PORT: saslSsl,
          }
        : {}),
    };
    try {
      const stdout = await runScript("start.sh", [], env);
      bootstrap = stdout.trim().split("\n").pop() ?? "";
    } catch (error) {
      lastError = error;
      // A failed attempt leaves a formatted directory for a port that is not ours; start afresh.
      await runScript("stop.sh", ["--kill"], env).catch(() => undefined);
      rmSync(path.join(work, "data"), { recursive: true, force: true });
    }
  }
  if (!bootstrap) {
    rmSync(work, { recursive: true, force: true });
    throw lastError instanceof Error ? lastError : new Error("the test broker did not start");
  }
  const port = Number(bootstrap.split(":").pop());
  const security = options.security ? readSecurity(work) : undefined;

  // Last resort when the test process ends without stop(): no broker outlives it.
  const onExit = () => {
    try {
      const pid = Number(readFileSync(path.join(work, "broker.pid"), "utf8"));
      if (pid > 0) process.kill(pid, "SIGKILL");
    } catch {
      // not running
    }
    rmSync(work, { recursive: true, force: true });
  };
  process.once("exit", onExit);

  let stopped: Promise<void> | undefined;
  return {
    bootstrap,
    port,
    ...(security ? { security } : {}),
    stop() {
      stopped ??= (async () => {
        process.removeListener("exit", onExit);
        try {
          await runScript("stop.sh", [], env);
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
      })();
      return stopped;
    },
    async kill() {
      await runScript("stop.sh", ["--kill"], env);
    },
    async restart() {
      await runScript("stop.sh", [], env);
      await runScript("start.sh", [], env);
    },
  };
}
