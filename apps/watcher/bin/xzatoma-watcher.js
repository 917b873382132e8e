#!/usr/bin/env node
// Entry point of the `xzatoma-watcher` service. The V8 memory settings are applied first,
// before any other module loads (bin/memory-flags.js).
import { setMemoryFlags } from "./memory-flags.js";

setMemoryFlags();
const { main } = await import("../dist/main.js");
process.exitCode = await main(process.argv.slice(2));
