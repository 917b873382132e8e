// Runs XZatoma's sandbox as whoever starts this script (the tests start it as an ordinary
// user) and prints what happened as JSON. Usage: node unprivileged-run.ts WORKSPACE SCRATCH
import { spawn } from "node:child_process";
import { lstat, readFile, readdir } from "node:fs/promises";
import { registerHooks } from "node:module";
import path from "node:path";

// The package's sources import each other as `.js`; here they are `.ts` files.
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!specifier.startsWith(".") || !specifier.endsWith(".js")) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});

const [workspace = "", scratch = ""] = process.argv.slice(2);
const { createSandbox } = await import("../sandbox.js");

const sandbox = createSandbox({ scratchDirectory: scratch });
await sandbox.probe();

async function run(command: string, limits?: { processes: number }) {
  const prepared = await sandbox.prepare(["/bin/bash", "--noprofile", "--norc", "-c", command], {
    workspace,
    cwd: workspace,
    judge: (relative) =>
      relative.split("/").includes(".envrc") ? `${relative} is protected` : undefined,
    ...(limits ? { limits } : {}),
  });
  const child = spawn(prepared.file, prepared.args, {
    env: { PATH: "/usr/bin:/bin", ...prepared.env },
    stdio: prepared.stdio,
    detached: true,
  });
  let stdout = "";
  // Kept for the report: when a count is missing, what the shell said is why.
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const timer = setTimeout(() => process.kill(-(child.pid ?? 0), "SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  return { code, stdout, stderr, outcome: await prepared.finish() };
}

const work = await run(
  "id -u; grep CapEff /proc/self/status; cat /etc/shadow 2>/dev/null || echo no-shadow; echo hi > a.txt; rm old.txt; python3 -c \"open('.envrc','w')\"; rm -rf build && mkdir build && echo n > build/new; chmod 000 a.txt",
);
// Builtins only, so that counting works while the bomb holds every process slot. It counts
// for 3 s and on until the bomb has grown past 8 processes (a loaded machine can start the
// loop late or the bomb slowly), but never past 30 s.
const bomb = await run(
  ":(){ :|:& };:; max=0; while { [ $SECONDS -lt 3 ] || [ $max -le 8 ]; } && [ $SECONDS -lt 30 ]; do n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; [ $n -gt $max ] && max=$n; done; echo $max",
  { processes: 32 },
);
const exists = (file: string) =>
  lstat(path.join(workspace, file)).then(
    () => true,
    () => false,
  );
process.stdout.write(
  JSON.stringify({
    uid: process.getuid?.(),
    kind: sandbox.kind,
    warning: sandbox.warning ?? null,
    work: { code: work.code, stdout: work.stdout, outcome: work.outcome },
    workspace: {
      a: (await lstat(path.join(workspace, "a.txt"))).mode & 0o777,
      oldExists: await exists("old.txt"),
      envrcExists: await exists(".envrc"),
      build: (await readdir(path.join(workspace, "build"))).sort(),
      buildNew: await readFile(path.join(workspace, "build/new"), "utf8"),
    },
    bomb: {
      code: bomb.code,
      peak: Number.parseInt(bomb.stdout, 10),
      stdout: bomb.stdout,
      stderr: bomb.stderr,
      outcome: { limitsReached: bomb.outcome.limitsReached ?? null },
    },
    scratchLeft: await readdir(scratch),
  }),
);
