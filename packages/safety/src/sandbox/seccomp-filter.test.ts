import { describe, expect, it } from "vitest";
import { AUDIT_ARCH, SECCOMP_RET, SYSCALL_TABLES, buildSeccompFilter } from "./seccomp-filter.js";

// A classic BPF interpreter for the instructions the filter uses, run the way the kernel
// runs a seccomp program: over a seccomp_data record, until a return.
function evaluate(program: Buffer, nr: number, arch: number, args: number[] = []): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr, 0);
  data.writeUInt32LE(arch, 4);
  args.forEach((value, index) => data.writeUInt32LE(value >>> 0, 16 + 8 * index));
  let accumulator = 0;
  let pc = 0;
  for (let steps = 0; steps < 4096; steps++) {
    if (pc * 8 >= program.length) throw new Error(`ran off the end at ${pc}`);
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    pc += 1;
    switch (code) {
      case 0x20: // ld [k]
        accumulator = data.readUInt32LE(k);
        break;
      case 0x54: // and #k
        accumulator = (accumulator & k) >>> 0;
        break;
      case 0x15: // jeq #k
        pc += accumulator === k ? jt : jf;
        break;
      case 0x45: // jset #k
        pc += (accumulator & k) !== 0 ? jt : jf;
        break;
      case 0x06: // ret #k
        return k;
      default:
        throw new Error(`unexpected opcode ${code.toString(16)}`);
    }
  }
  throw new Error("no return");
}

const DENY = (SECCOMP_RET.errno | 1) >>> 0;
const ALLOW = SECCOMP_RET.allow;
const AF_INET = 2;
const AF_UNIX = 1;
const AF_VSOCK = 40;
const SOCK_STREAM = 1;
const SOCK_DGRAM = 2;
const SOCK_SEQPACKET = 5;
const SOCK_CLOEXEC = 0o2000000;

describe("the sandbox's seccomp filter", () => {
  const program = buildSeccompFilter();

  it("is a whole number of instructions, small enough for the kernel", () => {
    expect(program.length % 8).toBe(0);
    expect(program.length / 8).toBeLessThan(4096);
  });

  for (const [name, table] of Object.entries(SYSCALL_TABLES)) {
    describe(name, () => {
      it("refuses every listed call with EPERM", () => {
        for (const [call, number] of Object.entries(table.denied)) {
          expect([call, evaluate(program, number, table.arch)]).toEqual([call, DENY]);
        }
      });

      it("allows the rest: read, write, openat, clone, execve", () => {
        const allowed = name === "x86_64" ? [0, 1, 257, 56, 59, 435] : [63, 64, 56, 220, 221, 435];
        for (const number of allowed) expect(evaluate(program, number, table.arch)).toBe(ALLOW);
      });

      it("refuses Unix and vsock sockets and allows the others", () => {
        const socket = (domain: number) =>
          evaluate(program, table.socket, table.arch, [domain, SOCK_STREAM | SOCK_CLOEXEC]);
        expect(socket(AF_UNIX)).toBe(DENY);
        expect(socket(AF_VSOCK)).toBe(DENY);
        expect(socket(AF_INET)).toBe(ALLOW);
      });

      it("allows stream and seqpacket socket pairs, not datagram ones", () => {
        const pair = (type: number) =>
          evaluate(program, table.socketpair, table.arch, [AF_UNIX, type]);
        expect(pair(SOCK_STREAM | SOCK_CLOEXEC)).toBe(ALLOW);
        expect(pair(SOCK_SEQPACKET)).toBe(ALLOW);
        expect(pair(SOCK_DGRAM)).toBe(DENY);
        expect(pair(SOCK_DGRAM | SOCK_CLOEXEC)).toBe(DENY);
      });
    });
  }

  it("refuses x32 system calls on x86_64, whatever their number", () => {
    expect(evaluate(program, 0x40000000 | 0, AUDIT_ARCH.x86_64)).toBe(DENY);
    expect(evaluate(program, 0x40000000 | 101, AUDIT_ARCH.x86_64)).toBe(DENY);
  });

  it("kills a process that uses another architecture's call table (i386, arm)", () => {
    expect(evaluate(program, 0, 0x40000003)).toBe(SECCOMP_RET.killProcess);
    expect(evaluate(program, 0, 0x40000028)).toBe(SECCOMP_RET.killProcess);
  });
});
