// Cold start of the built CLI: `xzatoma --version` and `--help`, median of 10, beside
// `node -e 0`. Target: --version within 1.5x of node -e 0.
import { CLI, format, median, timeSync } from "./measure.ts";

const RUNS = 10;
const measure = (args: readonly string[]) => {
  timeSync(process.execPath, args); // warm the file cache
  return median(Array.from({ length: RUNS }, () => timeSync(process.execPath, args)));
};

const node = measure(["-e", "0"]);
const version = measure([CLI, "--version"]);
const help = measure([CLI, "--help"]);
console.log(`cold start, median of ${RUNS} (node ${process.version})`);
console.log(`  node -e 0            ${format(node)}`);
console.log(
  `  xzatoma --version    ${format(version)}  (${(version / node).toFixed(2)}x node; target <= 1.5x)`,
);
console.log(`  xzatoma --help       ${format(help)}  (${(help / node).toFixed(2)}x node)`);
