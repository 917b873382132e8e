import { describe, expect, it } from "vitest";
import { memoryFlags, WASM_BASELINE, YOUNG_GENERATION } from "../bin/memory-flags.js";

describe("memoryFlags", () => {
  it("sets both when node was started without options of either kind", () => {
    expect(memoryFlags([], undefined)).toEqual([YOUNG_GENERATION, WASM_BASELINE]);
    expect(memoryFlags(["--enable-source-maps"], "--max-old-space-size=4096")).toEqual([
      YOUNG_GENERATION,
      WASM_BASELINE,
    ]);
  });

  it("leaves the young generation alone when the user sized it", () => {
    for (const option of [
      "--max-semi-space-size=64",
      "--max_semi_space_size=64",
      "--min-semi-space-size=4",
      "--semi-space-growth-factor=4",
    ]) {
      expect(memoryFlags([option], undefined)).toEqual([WASM_BASELINE]);
      expect(memoryFlags([], `--trace-gc ${option}`)).toEqual([WASM_BASELINE]);
    }
  });

  it("leaves WebAssembly tiering alone when the user chose it", () => {
    for (const option of [
      "--liftoff-only",
      "--no-liftoff",
      "--wasm-tier-up",
      "--no-wasm-dynamic-tiering",
      "--wasm_lazy_compilation",
    ]) {
      expect(memoryFlags([option], undefined)).toEqual([YOUNG_GENERATION]);
      expect(memoryFlags([], option)).toEqual([YOUNG_GENERATION]);
    }
    expect(memoryFlags(["--liftoff-only", "--max-semi-space-size=8"], undefined)).toEqual([]);
  });

  it("does not mistake other options for these", () => {
    expect(memoryFlags(["--wasm-max-mem-pages=100", "--semi-space"], "")).toEqual([
      YOUNG_GENERATION,
      WASM_BASELINE,
    ]);
  });
});
