#!/usr/bin/env node
// Entry point of the `xzatoma` command. The Node version is checked first, before any
// other module loads: on an older Node the native SQLite module crashes the process with
// no message. `--version` is answered here too, so it costs no more than starting Node.
// Written for old Node as well (no top-level await), so the check can always speak.
import { existsSync, readFileSync } from "node:fs";

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
    void import("../dist/main.js").then(async ({ main }) => {
      process.exitCode = await main(argv);
    });
  }
}
