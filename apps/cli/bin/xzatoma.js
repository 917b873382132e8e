#!/usr/bin/env node
// Entry point of the `xzatoma` command. The Node version is checked first, before any
// other module loads: on an older Node the native SQLite module crashes the process with
// no message. `--version` is answered here too, so it costs no more than starting Node.
// Written for old Node as well (no top-level await), so the check can always speak.
import { existsSync, readFileSync } from "node:fs";
import module from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";

/**
 * Node's on-disk compile cache: the ~250 modules a run loads are compiled once and read back
 * afterwards (docs/explanation/start-up-and-memory.md). In `$NODE_COMPILE_CACHE` when set,
 * else in the user's cache directory (`$XDG_CACHE_HOME/xzatoma/node-compile`, by default
 * under `~/.cache`; `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows), never in the
 * data directory, which persistence creates private (0700) when it first needs it.
 * Off with `NODE_DISABLE_COMPILE_CACHE=1`; any failure leaves it off, silently. Only this
 * process uses it: Node sets no environment variable, so commands the agent runs do not.
 */
function enableCompileCache() {
  try {
    if (typeof module.enableCompileCache !== "function") return;
    const env = process.env;
    const base =
      process.platform === "win32"
        ? env.LOCALAPPDATA || join(homedir(), "AppData", "Local")
        : process.platform === "darwin"
          ? join(homedir(), "Library", "Caches")
          : env.XDG_CACHE_HOME?.startsWith("/")
            ? env.XDG_CACHE_HOME
            : join(homedir(), ".cache");
    module.enableCompileCache(env.NODE_COMPILE_CACHE || join(base, "xzatoma", "node-compile"));
  } catch {
    // A start without the cache is only slower.
  }
}

/**
 * V8 settings that keep a long run's memory small (docs/explanation/start-up-and-memory.md,
 * "Memory of a long run"), set before any other module loads:
 * - `--semi-space-growth-factor=1`: the young generation keeps its initial size instead of
 *   growing to 2 x 16 MiB; a run's short-lived objects are scavenged a little more often.
 * - `--no-wasm-lazy-compilation --no-wasm-dynamic-tiering --no-wasm-tier-up`: WebAssembly
 *   (the HTTP parser of `fetch`, the bash grammar's runtime) is compiled once with Liftoff and
 *   never sent to TurboFan, which spent ~15 MiB on the HTTP parser alone.
 * Each is left alone when node was started with an option of the same kind (on its command
 * line or in `NODE_OPTIONS`), so a user's own choice wins. The flags live in this process only:
 * Node sets no environment variable, so the commands the agent runs do not inherit them.
 */
function setMemoryFlags() {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  const has = (pattern) => given.some((option) => pattern.test(option));
  try {
    if (!has(/^--(?:max|min)[-_]semi[-_]space[-_]size|^--semi[-_]space[-_]growth[-_]factor/))
      setFlagsFromString("--semi-space-growth-factor=1");
    if (
      !has(/^--(?:no-?)?(?:wasm[-_](?:lazy[-_]compilation|dynamic[-_]tiering|tier[-_]up)|liftoff)/)
    )
      setFlagsFromString("--no-wasm-lazy-compilation --no-wasm-dynamic-tiering --no-wasm-tier-up");
  } catch {
    // Without them a run only uses more memory.
  }
}

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 16)) {
  const checkout = existsSync(new URL("../../../tools/toolchain/env.sh", import.meta.url));
  process.stderr.write(
    `xzatoma: needs Node.js 22.16 or newer, but ${process.execPath} is Node ${process.versions.node}; ` +
      (checkout
        ? "run 'bash tools/start.sh' in this checkout: it installs Node 24 for XZatoma alone and sets up an 'xzatoma' command that uses it.\n"
        : "install Node 24 from https://nodejs.org (or with 'nvm install 24') and run xzatoma with it.\n"),
  );
  process.exitCode = 1;
} else {
  const argv = process.argv.slice(2);
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    process.stdout.write(`xzatoma ${manifest.version}\n`);
  } else {
    setMemoryFlags();
    enableCompileCache();
    void import("../dist/main.js").then(async ({ main }) => {
      process.exitCode = await main(argv);
    });
  }
}
