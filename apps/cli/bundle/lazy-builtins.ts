import { createRequire } from "node:module";
import type { Plugin } from "esbuild";

const NAMESPACE = "xzatoma-lazy-builtin";

/**
 * Node's built-in modules that a command needs only once it does something (runs a
 * process, starts a grep worker, fetches a page), never before its first model request.
 * Importing them is not free: Node compiles them and builds an ES module facade of each
 * (16 of Node's modules and ~5 ms before a run's first request, measured;
 * docs/explanation/start-up-and-memory.md, "What a start still loads").
 */
export const LAZY_BUILTINS = [
  "child_process",
  "crypto",
  "dns",
  "timers/promises",
  "v8",
  "vm",
  "worker_threads",
] as const;

/**
 * In the CLI's bundle, an import of one of {@link LAZY_BUILTINS} (from XZatoma's code or a
 * bundled dependency, `import` or `require`) gets an object with one getter per export of
 * the module: the real module is loaded the first time any of them is read, with
 * `process.getBuiltinModule`. esbuild reads named imports of a CommonJS module at each use
 * (`(0, import_x.spawn)(...)`), so nothing is read before it is used. The list of exports is
 * the building Node's; a name a user's Node lacks reads as `undefined`, as it would anyway.
 */
export function lazyBuiltins(): Plugin {
  const require = createRequire(import.meta.url);
  const names = new Set<string>(LAZY_BUILTINS);
  return {
    name: "xzatoma-lazy-builtins",
    setup(build) {
      build.onResolve({ filter: /^(?:node:)?[a-z_/]+$/ }, (args) => {
        const name = args.path.replace(/^node:/, "");
        return names.has(name) ? { path: name, namespace: NAMESPACE } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const id = `node:${args.path}`;
        const exports = Object.keys(require(id) as object).filter((key) => key !== "default");
        const getters = exports
          .map(
            (key) => `  get ${JSON.stringify(key)}() { return load()[${JSON.stringify(key)}]; },`,
          )
          .join("\n");
        return {
          contents:
            `let loaded;\n` +
            `const load = () => (loaded ??= process.getBuiltinModule(${JSON.stringify(id)}));\n` +
            `module.exports = {\n${getters}\n};\n`,
          loader: "js",
        };
      });
    },
  };
}
