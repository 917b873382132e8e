import { describe, expect, it } from "vitest";
import { createCommitBatcher, mergeCommits, type CommitBatch } from "./commit-batcher.js";

const record = (value: string) => ({ key: value, value });

describe("mergeCommits", () => {
  it("keeps every record in order per topic and the highest offset of each partition", () => {
    const batch = mergeCommits([
      { topic: "in", partition: 0, next: "5", publish: [{ topic: "out", records: [record("a")] }] },
      { topic: "in", partition: 1, next: "3", publish: [] },
      { topic: "in", partition: 0, next: "6", publish: [{ topic: "dlq", records: [record("b")] }] },
      {
        topic: "in",
        partition: 1,
        next: "10",
        publish: [{ topic: "out", records: [record("c")] }],
      },
    ]);
    expect(batch.publish).toEqual([
      { topic: "out", records: [record("a"), record("c")] },
      { topic: "dlq", records: [record("b")] },
    ]);
    expect(batch.offsets).toEqual([
      { topic: "in", partition: 0, offset: "6" },
      { topic: "in", partition: 1, offset: "10" },
    ]);
    expect(batch.messages).toBe(4);
  });

  it("compares offsets as numbers beyond 2^53", () => {
    const batch = mergeCommits([
      { topic: "in", partition: 0, next: "9007199254740993", publish: [] },
      { topic: "in", partition: 0, next: "9007199254740992", publish: [] },
    ]);
    expect(batch.offsets).toEqual([{ topic: "in", partition: 0, offset: "9007199254740993" }]);
  });
});

describe("createCommitBatcher", () => {
  it("gathers what finishes while a commit runs into the next one", async () => {
    const batches: CommitBatch[] = [];
    let release: () => void = () => undefined;
    const batcher = createCommitBatcher(async (batch) => {
      batches.push(batch);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return true;
    });
    const first = batcher.add({ topic: "in", partition: 0, next: "1", publish: [] });
    await new Promise((resolve) => setImmediate(resolve));
    const later = [1, 2, 3].map((i) =>
      batcher.add({ topic: "in", partition: i % 2, next: String(i + 1), publish: [] }),
    );
    expect(batcher.pending).toBe(4);
    release();
    expect(await Promise.all([first, ...later])).toEqual([true, true, true, true]);
    expect(batches.map((batch) => batch.messages)).toEqual([1, 3]);
    expect(batcher.pending).toBe(0);
  });

  it("tells every message of a batch whose commit gave up or threw", async () => {
    let calls = 0;
    const batcher = createCommitBatcher(async () => {
      calls += 1;
      if (calls === 1) return false;
      throw new Error("broker away");
    });
    const a = batcher.add({ topic: "in", partition: 0, next: "1", publish: [] });
    expect(await a).toBe(false);
    const b = batcher.add({ topic: "in", partition: 0, next: "2", publish: [] });
    expect(await b).toBe(false);
  });

  it("takes at most maxMessages per commit", async () => {
    const sizes: number[] = [];
    const batcher = createCommitBatcher(async (batch) => {
      sizes.push(batch.messages);
      return true;
    }, 2);
    await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        batcher.add({ topic: "in", partition: 0, next: String(i + 1), publish: [] }),
      ),
    );
    expect(sizes).toEqual([2, 2, 1]);
  });
});
