import { describe, expect, it } from "vitest";
import {
  memoryFlags,
  OPTIMIZE_FOR_SIZE,
  WASM_BASELINE,
  YOUNG_GENERATION,
} from "../bin/memory-flags.js";

describe("memoryFlags", () => {
  it("sets all three when node was started without options of their kinds", () => {
    const all = [OPTIMIZE_FOR_SIZE, YOUNG_GENERATION, WASM_BASELINE];
    expect(memoryFlags([], undefined)).toEqual(all);
    expect(memoryFlags(["--enable-source-maps"], "--max-old-space-size=4096")).toEqual(all);
  });

  it("leaves the heap's sizing for memory alone when the operator chose it", () => {
    for (const option of [
      "--optimize-for-size",
      "--no-optimize-for-size",
      "--optimize_for_size",
      "--nooptimize-for-size",
    ]) {
      expect(memoryFlags([option], undefined)).toEqual([YOUNG_GENERATION, WASM_BASELINE]);
      expect(memoryFlags([], `--trace-gc ${option}`)).toEqual([YOUNG_GENERATION, WASM_BASELINE]);
    }
  });

  it("leaves the young generation alone when the operator sized it, --optimize-for-size too (it would cap it)", () => {
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

  it("leaves WebAssembly tiering alone when the operator chose it", () => {
    for (const option of [
      "--liftoff-only",
      "--no-liftoff",
      "--wasm-tier-up",
      "--no-wasm-dynamic-tiering",
      "--wasm_lazy_compilation",
    ]) {
      expect(memoryFlags([option], undefined)).toEqual([OPTIMIZE_FOR_SIZE, YOUNG_GENERATION]);
      expect(memoryFlags([], option)).toEqual([OPTIMIZE_FOR_SIZE, YOUNG_GENERATION]);
    }
    expect(
      memoryFlags(["--liftoff-only", "--optimize-for-size", "--max-semi-space-size=2"], undefined),
    ).toEqual([]);
  });

  it("does not mistake other options for these", () => {
    expect(
      memoryFlags(["--wasm-max-mem-pages=100", "--semi-space", "--optimize-for-sizes"], ""),
    ).toEqual([OPTIMIZE_FOR_SIZE, YOUNG_GENERATION, WASM_BASELINE]);
  });
});
