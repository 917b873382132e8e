// The container image, built and run: deploy/watcher/build-image.sh builds it from this
// checkout (the Dockerfile's build stage installs, builds and deploys the app inside a
// container), then the image's own entry point and command run as its user, in its file
// system, against a real Kafka broker (tools/kafka/start.sh) and a scripted model on
// 127.0.0.1. No container engine runs on the machines this suite runs on, so bubblewrap
// stands in for one: the image's root file system (mounted by buildah) read-only as `/`, new
// user, PID, IPC and UTS namespaces, its `USER`, `WORKDIR` and `ENV`, tini as PID 1, and the
// host's network (a pod's loopback would hold the broker's and model's ports in Kubernetes).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { startTestBroker, type TestBroker } from "@xzatoma/scripted-servers/kafka";
import { startScriptedOpenAI, type ScriptedOpenAI } from "@xzatoma/scripted-servers/openai";
import { parseResultEvent } from "@xzatoma/xzepr";
import { Kafka, logLevel, type Consumer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asMessage,
  collectCommitted,
  type CommittedRecord,
} from "./committed-records.test-support.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TAG = `localhost/xzatoma-watcher:e2e-${process.pid}`;
const BUILD = readFileSync(
  path.join(ROOT, "packages/xzepr/src/__fixtures__/build_success_event.json"),
  "utf8",
);
const DEADLINE = 120_000;

interface ImageConfig {
  readonly Entrypoint: string[];
  readonly Cmd: string[];
  readonly User: string;
  readonly WorkingDir: string;
  readonly Env: string[];
}

let broker: TestBroker;
let kafka: Kafka;
let model: ScriptedOpenAI;
let home: string;
let container: string | undefined;
let rootfs: string;
let image: ImageConfig;
let buildLog = "";
const children = new Set<ChildProcess>();
const consumers: Consumer[] = [];

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-watcher-image-"));
  // The build prints every step; its output is kept for the failure message.
  try {
    const built = await run("bash", [path.join(ROOT, "deploy/watcher/build-image.sh")], {
      cwd: ROOT,
      env: { ...process.env, TAG, WORK: path.join(ROOT, ".cache/watcher-image") },
      maxBuffer: 64 * 1024 * 1024,
    });
    buildLog = built.stdout + built.stderr;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `deploy/watcher/build-image.sh failed: ${failed.message}\n${`${failed.stdout ?? ""}${failed.stderr ?? ""}`.slice(-6000)}`,
    );
  }
  const inspected = JSON.parse(
    (await run("buildah", ["inspect", "--type", "image", TAG], { maxBuffer: 16 << 20 })).stdout,
  ) as { Docker: { config: ImageConfig } };
  image = inspected.Docker.config;
  container = (await run("buildah", ["from", "--quiet", TAG])).stdout.trim();
  rootfs = (await run("buildah", ["mount", container])).stdout.trim();
  broker = await startTestBroker();
  kafka = new Kafka({
    clientId: "image-e2e",
    brokers: [broker.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  model = await startScriptedOpenAI({
    scenario: () => ({ content: "Verified in the image." }),
    apiKey: "sk-image",
    models: ["scripted-1"],
  });
}, 1_800_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const consumer of consumers) await consumer.disconnect();
  await model?.close();
  await broker?.stop();
  if (container !== undefined) {
    await run("buildah", ["umount", container]).catch(() => undefined);
    await run("buildah", ["rm", container]).catch(() => undefined);
  }
  await run("buildah", ["rmi", "--force", TAG]).catch(() => undefined);
  await rm(home, { recursive: true, force: true });
}, 120_000);

/** Waits for `check`; fails at the deadline or as soon as the image's process has ended. */
async function until(what: string, check: () => boolean, running: Running): Promise<void> {
  const end = Date.now() + DEADLINE;
  while (!check()) {
    if (running.ended() || Date.now() > end) {
      throw new Error(
        `${running.ended() ? "The image's process ended" : "Timed out"} waiting for ${what}:\n${running.log().slice(-4000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every committed record of `topic`, read from the start into an array that keeps growing. */
async function collect(topic: string): Promise<CommittedRecord[]> {
  const { seen, consumer } = await collectCommitted(kafka, topic);
  consumers.push(consumer);
  return seen;
}

interface Running {
  readonly child: ChildProcess;
  /** The host PID of the image's entry point (tini, PID 1 in the image). */
  readonly pid: Promise<number>;
  readonly log: () => string;
  readonly exited: Promise<number | null>;
  readonly ended: () => boolean;
}

/**
 * Starts the image as a container engine would: its entry point and command, as its user, in
 * its working directory, with its environment and the given variables; `mounts` maps host
 * directories to paths in the image, whose mount points are made in the container's layer as
 * an engine makes them.
 */
async function startImage(
  mounts: Record<string, string>,
  env: Record<string, string>,
): Promise<Running> {
  for (const inImage of Object.values(mounts)) {
    await mkdir(path.join(rootfs, inImage), { recursive: true });
  }
  const [uid, gid] = image.User.split(":");
  const args = [
    "--unshare-user",
    "--uid",
    uid ?? "",
    "--gid",
    gid ?? uid ?? "",
    "--unshare-pid",
    "--as-pid-1",
    "--unshare-ipc",
    "--unshare-uts",
    "--die-with-parent",
    "--ro-bind",
    rootfs,
    "/",
    ...Object.entries(mounts).flatMap(([host, inImage]) => ["--bind", host, inImage]),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    "--clearenv",
    ...[...image.Env, ...Object.entries(env).map(([name, value]) => `${name}=${value}`)].flatMap(
      (pair) => ["--setenv", pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)],
    ),
    "--chdir",
    image.WorkingDir,
    "--info-fd",
    "3",
    "--",
    ...image.Entrypoint,
    ...image.Cmd,
  ];
  const child = spawn("bwrap", args, { stdio: ["ignore", "pipe", "pipe", "pipe"] });
  let ended = false;
  child.once("exit", () => (ended = true));
  children.add(child);
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const pid = new Promise<number>((resolve, reject) => {
    let info = "";
    const fd = child.stdio[3] as NodeJS.ReadableStream;
    fd.on("data", (chunk: Buffer) => {
      info += chunk.toString();
      const found = /"child-pid":\s*(\d+)/.exec(info);
      if (found) resolve(Number(found[1]));
    });
    child.once("exit", () => reject(new Error(`bwrap exited before it started the image: ${log}`)));
  });
  pid.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, pid, log: () => log, exited, ended: () => ended };
}

describe("the xzatoma-watcher image (deploy/watcher/build-image.sh)", () => {
  it("is built by the Dockerfile's build stage and says what it is", () => {
    expect(buildLog).toContain("Successfully tagged");
    expect(buildLog).toContain("pnpm install --frozen-lockfile");
    expect(buildLog).toMatch(/uid 10001\b/);
    expect(buildLog).toMatch(/xzatoma-watcher \d+\.\d+\.\d+/);
    expect(image.User).toBe("10001:10001");
    // The CA bundle the build stage was given (the build secret) is in no layer.
    expect(existsSync(path.join(rootfs, "run/secrets/build-ca"))).toBe(false);
    expect(image.Env.some((pair) => pair.startsWith("NODE_EXTRA_CA_CERTS="))).toBe(false);
    expect(image.Entrypoint).toEqual([
      "tini",
      "--",
      "node",
      "/opt/xzatoma-watcher/bin/xzatoma-watcher.js",
    ]);
  });

  it("runs an event from the broker through its entry point and command, as its user, and stops on SIGTERM with exit 0", async () => {
    const config = path.join(home, "etc");
    const data = path.join(home, "data");
    const workspace = path.join(home, "workspace");
    for (const dir of [config, data, workspace]) await mkdir(dir, { recursive: true });
    // The image's command reads /etc/xzatoma-watcher/config.yaml (JSON is YAML).
    await writeFile(
      path.join(config, "config.yaml"),
      JSON.stringify({
        provider: { type: "openai", openai: { base_url: model.url, model: "scripted-1" } },
        watcher: {
          kafka: {
            brokers: broker.bootstrap,
            topic: "image.in",
            group_id: "image-group",
            session_timeout_ms: 6000,
          },
          filters: { event_types: ["build.success"] },
          health: { port: 0 },
        },
      }),
    );
    const results = await collect("image.in.results");
    const watcher = await startImage(
      {
        [config]: "/etc/xzatoma-watcher",
        [data]: "/var/lib/xzatoma-watcher",
        [workspace]: "/workspace",
      },
      { OPENAI_API_KEY: "sk-image" },
    );
    await until(
      "the image's watcher to consume",
      () => watcher.log().includes('"msg":"watching"'),
      watcher,
    );
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: "image.in", messages: [{ key: "build", value: BUILD }] });
    await producer.disconnect();
    await until("the event's result", () => results.length >= 1, watcher);
    const record = results[0]!;
    const parsed = parseResultEvent(asMessage(record));
    expect(parsed.kind).toBe("result");
    if (parsed.kind === "result") {
      expect(parsed.event.data).toMatchObject({
        status: "completed",
        answer: "Verified in the image.",
      });
    }
    expect(model.chatRequests).toHaveLength(1);
    // The process ran as the image's user: what it wrote is that user's (10001 in the image,
    // this test's own user outside it), in the image's XZATOMA_HOME.
    const ids = await run("bwrap", [
      "--unshare-user",
      "--uid",
      "10001",
      "--gid",
      "10001",
      "--ro-bind",
      rootfs,
      "/",
      "--bind",
      data,
      "/var/lib/xzatoma-watcher",
      "--",
      "/usr/bin/stat",
      "-c",
      "%u %n",
      "/var/lib/xzatoma-watcher/history.db",
    ]);
    expect(ids.stdout.trim()).toBe("10001 /var/lib/xzatoma-watcher/history.db");
    // SIGTERM to PID 1 (tini), as the container engine sends the image's STOPSIGNAL.
    expect(image.Env).toContain("XZATOMA_HOME=/var/lib/xzatoma-watcher");
    process.kill(await watcher.pid, "SIGTERM");
    expect(await watcher.exited).toBe(0);
    expect(watcher.log()).toContain('"msg":"stopped"');
  }, 300_000);
});
