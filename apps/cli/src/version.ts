import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The version of `@xzatoma/cli`, from its package.json. */
export const version: string = (require("../package.json") as { version: string }).version;
