#!/usr/bin/env node
// Entry point of the `xzatoma-watcher` service.
const { main } = await import("../dist/main.js");
process.exitCode = await main(process.argv.slice(2));
