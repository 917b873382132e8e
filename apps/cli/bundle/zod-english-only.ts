import path from "node:path";
import type { Plugin } from "esbuild";

const NAMESPACE = "xzatoma-zod-locales";

/**
 * zod's entry re-exports every translation of its error messages (`z.locales`, 60-odd
 * modules, half of the zod in the bundle) and uses only English, which it sets itself at
 * import. Nothing in XZatoma reads `z.locales`, so in the CLI's bundle that namespace holds
 * English alone: importing zod costs ~9 ms less (docs/explanation/start-up-and-memory.md,
 * "What a start still loads"). The libraries, published
 * unbundled with zod as a peer, are untouched, and so is any zod a tool package brings.
 */
export function zodEnglishOnly(): Plugin {
  return {
    name: "xzatoma-zod-english-only",
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
        if (!/[\\/]zod[\\/]v4[\\/](?:classic|core|mini)[\\/]/.test(args.importer)) return undefined;
        return {
          path: "english-only",
          namespace: NAMESPACE,
          pluginData: path.join(args.resolveDir, "..", "locales", "en.js"),
        };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const english = args.pluginData as string;
        return {
          contents: `export { default as en } from ${JSON.stringify(english)};\n`,
          resolveDir: path.dirname(english),
          loader: "js",
        };
      });
    },
  };
}
