#!/usr/bin/env node
// Entry point of the `xzatoma-watcher` service. The Node version is checked first: on an
// older Node the service would fail later with an unrelated error (node:sqlite, its ledger's
// database, is missing or behind a flag there). Then the V8 memory settings are applied,
// before any other module loads (bin/memory-flags.js).
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(
    `xzatoma-watcher: needs Node.js 22.19 or newer, but ${process.execPath} is Node ${process.versions.node}; install Node 24 and run it with that.\n`,
  );
  process.exitCode = 1;
} else {
  const { setMemoryFlags } = await import("./memory-flags.js");
  setMemoryFlags();
  const { main } = await import("../dist/main.js");
  process.exitCode = await main(process.argv.slice(2));
}
