import { expect, it } from "vitest";
import { useJitlessZod } from "./zod-settings.js";

it("turns zod's schema compiling off without loading zod, and zod, loaded after, keeps it off", async () => {
  await useJitlessZod();
  // This file imports no zod before this point: the setting was made without it.
  const { config, z } = await import("zod");
  expect(config().jitless).toBe(true);
  expect(z.object({ a: z.string() }).strict().safeParse({ a: "x" }).success).toBe(true);
});
