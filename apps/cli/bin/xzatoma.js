#!/usr/bin/env node
// Entry point of the `xzatoma` command. `--version` is answered here, before any
// module loads, so it costs no more than starting Node.
import { readFileSync } from "node:fs";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`xzatoma ${manifest.version}\n`);
} else {
  const { main } = await import("../dist/main.js");
  process.exitCode = await main(argv);
}
