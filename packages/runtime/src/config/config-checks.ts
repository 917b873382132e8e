/**
 * The zod-free functions the configuration's zod schemas refine, preprocess and check their
 * sections with, by name. The generator (`generate-config-reader.ts`) finds each refinement's
 * function here by identity and writes its name into the table; a refinement whose function
 * is not here becomes "not sure", so zod decides it. The reader calls the very functions the
 * schemas call.
 */
import {
  criticalAtLeastWarning,
  isHttpUrlWithoutCredentials,
  toolPackageFromName,
} from "@xzatoma/core";
import { acceptMcpServersKey, oneTransportPerServer, renamePastedKeys } from "@xzatoma/mcp";
import { isOllamaHost } from "@xzatoma/providers";
import { isHookMatcher } from "../hooks/hook-matcher.js";

export const CONFIG_CHECKS = {
  /** `z.string().refine(fn)`: the value passes when `fn` returns true. */
  refinements: { isHookMatcher, isHttpUrlWithoutCredentials, isOllamaHost },
  /** `withRule(schema, rule)`: the section passes when `rule` returns no issue. */
  rules: { criticalAtLeastWarning, oneTransportPerServer },
  /** `z.preprocess(fn, schema)`: `fn` turns the value into what `schema` reads. */
  preprocess: { acceptMcpServersKey, renamePastedKeys, toolPackageFromName },
} as const;
