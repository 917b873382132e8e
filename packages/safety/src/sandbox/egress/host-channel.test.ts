import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  encodeFrame,
  FRAME,
  FrameDecoder,
  MAX_FRAME_PAYLOAD,
  type Frame,
} from "./channel-frames.js";
import { HostChannel, MAX_OPEN_CONNECTIONS, type ChannelStream } from "./host-channel.js";

/** A channel whose other end (the forwarder's) the test plays by hand. */
function channelUnderTest() {
  const input = new PassThrough();
  const output = new PassThrough();
  const sent: Frame[] = [];
  const decoder = new FrameDecoder();
  output.on("data", (chunk: Buffer) => sent.push(...decoder.push(chunk)));
  const streams: ChannelStream[] = [];
  const broken: string[] = [];
  const channel = new HostChannel(
    { input, output },
    (stream) => streams.push(stream),
    (reason) => broken.push(reason),
  );
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return { input, output, sent, streams, broken, channel, tick };
}

describe("FrameDecoder", () => {
  it("cuts frames at any boundary and refuses what breaks the format", () => {
    const bytes = Buffer.concat([
      encodeFrame(FRAME.open, 7),
      encodeFrame(FRAME.data, 7, Buffer.from("hello")),
      encodeFrame(FRAME.end, 7),
    ]);
    const decoder = new FrameDecoder();
    const frames: Frame[] = [];
    for (const byte of bytes) frames.push(...decoder.push(Buffer.from([byte])));
    expect(frames.map((frame) => [frame.type, frame.id, frame.payload.toString()])).toEqual([
      [FRAME.open, 7, ""],
      [FRAME.data, 7, "hello"],
      [FRAME.end, 7, ""],
    ]);
    const oversized = Buffer.alloc(9);
    oversized.writeUInt8(FRAME.data, 0);
    oversized.writeUInt32BE(MAX_FRAME_PAYLOAD + 1, 5);
    expect(() => new FrameDecoder().push(oversized)).toThrow(/frame of/);
    expect(() => new FrameDecoder().push(Buffer.from([99, 0, 0, 0, 1, 0, 0, 0, 0]))).toThrow(
      /unknown frame type/,
    );
    const openWithPayload = Buffer.from([FRAME.open, 0, 0, 0, 1, 0, 0, 0, 1, 65]);
    expect(() => new FrameDecoder().push(openWithPayload)).toThrow(/with a payload/);
  });
});

describe("HostChannel", () => {
  it("hands each opened connection over as a stream, both ways", async () => {
    const { input, sent, streams, tick } = channelUnderTest();
    input.write(encodeFrame(FRAME.open, 1));
    input.write(encodeFrame(FRAME.data, 1, Buffer.from("GET / HTTP/1.1\r\n\r\n")));
    input.write(encodeFrame(FRAME.end, 1));
    await tick();
    const [stream] = streams;
    expect(stream?.id).toBe(1);
    const received: Buffer[] = [];
    stream?.on("data", (chunk: Buffer) => received.push(chunk));
    stream?.end("HTTP/1.1 200 OK\r\n\r\n");
    await tick();
    expect(Buffer.concat(received).toString()).toBe("GET / HTTP/1.1\r\n\r\n");
    expect(sent.map((frame) => [frame.type, frame.id, frame.payload.toString()])).toEqual([
      [FRAME.data, 1, "HTTP/1.1 200 OK\r\n\r\n"],
      [FRAME.end, 1, ""],
    ]);
  });

  it("asks the forwarder to pause a connection nobody reads, and to resume once read", async () => {
    const { input, sent, streams, tick } = channelUnderTest();
    input.write(encodeFrame(FRAME.open, 3));
    for (let index = 0; index < 4; index++) {
      input.write(encodeFrame(FRAME.data, 3, Buffer.alloc(MAX_FRAME_PAYLOAD)));
    }
    await tick();
    expect(sent.map((frame) => frame.type)).toEqual([FRAME.pause]);
    streams[0]?.resume();
    await tick();
    expect(sent.map((frame) => frame.type)).toEqual([FRAME.pause, FRAME.resume]);
  });

  it("resets connections past its limit", async () => {
    const { input, sent, streams, tick } = channelUnderTest();
    for (let id = 1; id <= MAX_OPEN_CONNECTIONS + 1; id++) input.write(encodeFrame(FRAME.open, id));
    await tick();
    expect(streams).toHaveLength(MAX_OPEN_CONNECTIONS);
    expect(sent.map((frame) => [frame.type, frame.id])).toEqual([
      [FRAME.reset, MAX_OPEN_CONNECTIONS + 1],
    ]);
  });

  it("closes every connection and both pipes when the forwarder breaks the format", async () => {
    const { input, output, streams, broken, tick } = channelUnderTest();
    input.write(encodeFrame(FRAME.open, 1));
    input.write(encodeFrame(FRAME.open, 1));
    await tick();
    expect(broken).toEqual(["connection 1 opened twice"]);
    expect(streams[0]?.destroyed).toBe(true);
    expect(input.destroyed).toBe(true);
    expect(output.destroyed).toBe(true);
  });
});
