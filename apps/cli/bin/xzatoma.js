#!/usr/bin/env node
// Entry point of the `xzatoma` command. The Node version is checked first, before any
// other module loads: on an older Node the native SQLite module crashes the process with
// no message. `--version` is answered here too, so it costs no more than starting Node.
// Written for old Node as well (no top-level await), so the check can always speak.
import { existsSync, readFileSync } from "node:fs";
import module from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";

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

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  const checkout = existsSync(new URL("../../../tools/toolchain/env.sh", import.meta.url));
  process.stderr.write(
    `xzatoma: needs Node.js 22.19 or newer, but ${process.execPath} is Node ${process.versions.node}; ` +
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
    // The memory settings (memory-flags.js) are applied later, by the commands that run long
    // (src/session/memory-settings.ts): a V8 setting changed now would make V8 turn down the
    // compiled code of Node's own modules and of the compile cache for the whole start.
    enableCompileCache();
    // If the event loop runs dry while the command has not finished (a wait that nothing
    // keeps alive), node would exit with 0 as if it had succeeded. It fails instead.
    let finished = false;
    process.on("beforeExit", () => {
      if (finished) return;
      finished = true;
      process.stderr.write(
        "xzatoma: stopped before the command finished (an internal wait ended without an answer); this is a bug, please report it\n",
      );
      process.exitCode = 1;
    });
    void import("../dist/main.js").then(async ({ main }) => {
      const code = await main(argv);
      finished = true;
      process.exitCode = code;
    });
  }
}
