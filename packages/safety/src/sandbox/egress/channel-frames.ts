// The wire format between the forwarder inside the sandbox and the egress proxy outside:
// one byte stream each way (two pipes), carrying many TCP connections as frames. A frame
// is a 9-byte header (type, stream id, payload length; big-endian) and its payload. The
// forwarder's copy of this format lives in forwarder-source.ts; the two must agree.

/** Frame types. */
export const FRAME = {
  /** forwarder → proxy: a new connection to the proxy, id chosen by the forwarder. */
  open: 1,
  /** Bytes of a connection. */
  data: 2,
  /** The sender will send no more bytes on this connection (a half-close). */
  end: 3,
  /** The connection is gone; drop it. */
  reset: 4,
  /** Stop sending bytes on this connection until `resume`. */
  pause: 5,
  resume: 6,
} as const;

export type FrameType = (typeof FRAME)[keyof typeof FRAME];

/** Header bytes of every frame. */
export const FRAME_HEADER_BYTES = 9;
/** Largest payload of one frame; larger writes are split. */
export const MAX_FRAME_PAYLOAD = 64 * 1024;

/** One decoded frame. */
export interface Frame {
  readonly type: FrameType;
  readonly id: number;
  readonly payload: Buffer;
}

const EMPTY = Buffer.alloc(0);

/** The bytes of one frame. `payload` must be at most {@link MAX_FRAME_PAYLOAD} bytes. */
export function encodeFrame(type: FrameType, id: number, payload: Buffer = EMPTY): Buffer {
  if (payload.length > MAX_FRAME_PAYLOAD) throw new RangeError("frame payload too large");
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  frame.writeUInt8(type, 0);
  frame.writeUInt32BE(id, 1);
  frame.writeUInt32BE(payload.length, 5);
  payload.copy(frame, FRAME_HEADER_BYTES);
  return frame;
}

/** The peer broke the format: the channel cannot be trusted any further. */
export class ChannelProtocolError extends Error {
  override readonly name = "ChannelProtocolError";
}

const KNOWN_TYPES = new Set<number>(Object.values(FRAME));

/**
 * Cuts a byte stream into frames. Throws {@link ChannelProtocolError} on an unknown type,
 * a payload over {@link MAX_FRAME_PAYLOAD}, or a payload on a frame that carries none.
 */
export class FrameDecoder {
  private buffered: Buffer = EMPTY;

  /** Adds bytes and returns the frames they complete. */
  push(chunk: Buffer): Frame[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const frames: Frame[] = [];
    let offset = 0;
    while (this.buffered.length - offset >= FRAME_HEADER_BYTES) {
      const type = this.buffered.readUInt8(offset);
      const id = this.buffered.readUInt32BE(offset + 1);
      const length = this.buffered.readUInt32BE(offset + 5);
      if (!KNOWN_TYPES.has(type)) throw new ChannelProtocolError(`unknown frame type ${type}`);
      if (length > MAX_FRAME_PAYLOAD) throw new ChannelProtocolError(`frame of ${length} bytes`);
      if (type !== FRAME.data && length !== 0) {
        throw new ChannelProtocolError(`frame type ${type} with a payload`);
      }
      const end = offset + FRAME_HEADER_BYTES + length;
      if (this.buffered.length < end) break;
      // A view, not a copy: what was read from the pipe is never written to again.
      const payload = this.buffered.subarray(offset + FRAME_HEADER_BYTES, end);
      frames.push({ type: type as FrameType, id, payload });
      offset = end;
    }
    this.buffered = offset === 0 ? this.buffered : this.buffered.subarray(offset);
    return frames;
  }
}
