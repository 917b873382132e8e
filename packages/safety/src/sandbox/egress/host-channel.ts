// The proxy's end of the channel to the forwarder: every connection the forwarder opens
// becomes a Duplex stream here, with its own flow control, so one slow download cannot
// make the proxy buffer without bound.
import { Duplex } from "node:stream";
import {
  ChannelProtocolError,
  encodeFrame,
  FRAME,
  FrameDecoder,
  MAX_FRAME_PAYLOAD,
  type Frame,
  type FrameType,
} from "./channel-frames.js";

/** How many connections of one command may be open at once; more are reset. */
export const MAX_OPEN_CONNECTIONS = 256;

/** One connection that a program inside the sandbox opened to the proxy. */
export class ChannelStream extends Duplex {
  /** We asked the forwarder to stop sending (our readable side is full). */
  private askedToPause = false;
  /** The forwarder asked us to stop sending; the pending write waits for `resume`. */
  private pausedByPeer = false;
  private waitingWrite: (() => void) | undefined;
  private endReceived = false;
  private endSent = false;
  private resetReceived = false;
  private readonly channel: HostChannel;
  readonly id: number;

  constructor(channel: HostChannel, id: number) {
    super({ allowHalfOpen: true, highWaterMark: MAX_FRAME_PAYLOAD });
    this.channel = channel;
    this.id = id;
  }

  /** @internal A frame for this connection arrived. */
  receive(frame: Frame): void {
    switch (frame.type) {
      case FRAME.data:
        if (this.endReceived) return;
        if (!this.push(frame.payload) && !this.askedToPause) {
          this.askedToPause = true;
          this.channel.send(FRAME.pause, this.id);
        }
        return;
      case FRAME.end:
        this.endReceived = true;
        this.push(null);
        return;
      case FRAME.reset:
        this.resetReceived = true;
        this.destroy();
        return;
      case FRAME.pause:
        this.pausedByPeer = true;
        return;
      case FRAME.resume:
        this.pausedByPeer = false;
        this.flushWaitingWrite();
        return;
      default:
        return;
    }
  }

  override _read(): void {
    if (this.askedToPause) {
      this.askedToPause = false;
      this.channel.send(FRAME.resume, this.id);
    }
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error) => void) {
    for (let offset = 0; offset < chunk.length; offset += MAX_FRAME_PAYLOAD) {
      this.channel.send(FRAME.data, this.id, chunk.subarray(offset, offset + MAX_FRAME_PAYLOAD));
    }
    // The next write waits until the pipe drained and the forwarder's socket took it.
    this.waitingWrite = () => this.channel.whenDrained(() => callback());
    if (!this.pausedByPeer) this.flushWaitingWrite();
  }

  override _final(callback: (error?: Error) => void): void {
    this.endSent = true;
    this.channel.send(FRAME.end, this.id);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.resetReceived && !(this.endSent && this.endReceived)) {
      this.channel.send(FRAME.reset, this.id);
    }
    this.channel.forget(this.id);
    this.waitingWrite = undefined;
    callback(error);
  }

  private flushWaitingWrite(): void {
    const waiting = this.waitingWrite;
    this.waitingWrite = undefined;
    waiting?.();
  }
}

/** Where the channel's bytes come from and go to. */
export interface ChannelEnds {
  readonly input: NodeJS.ReadableStream & { destroy(): void };
  readonly output: NodeJS.WritableStream & { destroy(): void };
}

/**
 * The proxy's side of the channel. `onStream` is called for every connection the
 * forwarder opens. A frame that breaks the format closes the whole channel: the proxy
 * stops trusting the stream, and the command loses the network.
 */
export class HostChannel {
  private readonly streams = new Map<number, ChannelStream>();
  private readonly decoder = new FrameDecoder();
  private drained = true;
  private drainWaiters: (() => void)[] = [];
  private closed = false;
  private readonly ends: ChannelEnds;
  private readonly onStream: (stream: ChannelStream) => void;
  private readonly onBroken: (reason: string) => void;

  constructor(
    ends: ChannelEnds,
    onStream: (stream: ChannelStream) => void,
    onBroken: (reason: string) => void = () => undefined,
  ) {
    this.ends = ends;
    this.onStream = onStream;
    this.onBroken = onBroken;
    ends.input.on("data", (chunk: Buffer) => this.receive(chunk));
    ends.input.on("error", () => this.close());
    ends.output.on("error", () => this.close());
    ends.output.on("drain", () => {
      this.drained = true;
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const waiter of waiters) waiter();
    });
  }

  /** @internal Sends one frame. */
  send(type: FrameType, id: number, payload?: Buffer): void {
    if (this.closed) return;
    if (!this.ends.output.write(encodeFrame(type, id, payload))) this.drained = false;
  }

  /** @internal Runs `callback` once the pipe to the forwarder has room again. */
  whenDrained(callback: () => void): void {
    if (this.drained || this.closed) callback();
    else this.drainWaiters.push(callback);
  }

  /** @internal */
  forget(id: number): void {
    this.streams.delete(id);
  }

  /** Closes every connection and both pipes. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stream of [...this.streams.values()]) stream.destroy();
    this.streams.clear();
    for (const waiter of this.drainWaiters) waiter();
    this.drainWaiters = [];
    this.ends.input.destroy();
    this.ends.output.destroy();
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    let frames: Frame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      this.onBroken(error instanceof ChannelProtocolError ? error.message : String(error));
      this.close();
      return;
    }
    for (const frame of frames) {
      if (this.closed) return;
      if (frame.type === FRAME.open) this.open(frame.id);
      else this.streams.get(frame.id)?.receive(frame);
    }
  }

  private open(id: number): void {
    if (this.streams.has(id)) {
      this.onBroken(`connection ${id} opened twice`);
      this.close();
      return;
    }
    if (this.streams.size >= MAX_OPEN_CONNECTIONS) {
      this.send(FRAME.reset, id);
      return;
    }
    const stream = new ChannelStream(this, id);
    this.streams.set(id, stream);
    this.onStream(stream);
  }
}
