// The seccomp program XZatoma's sandbox hands to bubblewrap (`--seccomp FD`): classic BPF
// over `struct seccomp_data` (nr at offset 0, arch at 4, args[i] at 16 + 8 * i, host byte
// order). Everything not listed is allowed; the listed calls fail with EPERM, which
// programs report as an ordinary refusal. Capabilities are already dropped and user
// namespaces disabled, so most of these would fail anyway: the filter is the second wall,
// and the only one against Unix sockets that the filesystem view cannot hide.

/** `AUDIT_ARCH_*` values of the architectures the filter knows. */
export const AUDIT_ARCH = { x86_64: 0xc000003e, aarch64: 0xc00000b7 } as const;

/** `SECCOMP_RET_*` actions. */
export const SECCOMP_RET = {
  killProcess: 0x80000000,
  errno: 0x00050000,
  allow: 0x7fff0000,
} as const;

const EPERM = 1;
const AF_UNIX = 1;
const AF_VSOCK = 40;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;
const SOCK_TYPE_MASK = 0xf;
/** Bit that marks an x32 system call on x86_64; x32 reaches the same handlers by other numbers. */
const X32_SYSCALL_BIT = 0x40000000;

type DeniedCall =
  | "ptrace"
  | "process_vm_readv"
  | "process_vm_writev"
  | "bpf"
  | "perf_event_open"
  | "userfaultfd"
  | "keyctl"
  | "add_key"
  | "request_key"
  | "kexec_load"
  | "kexec_file_load"
  | "init_module"
  | "finit_module"
  | "delete_module"
  | "mount"
  | "umount2"
  | "pivot_root"
  | "chroot"
  | "unshare"
  | "setns"
  | "open_tree"
  | "move_mount"
  | "fsopen"
  | "fsconfig"
  | "fsmount"
  | "fspick"
  | "mount_setattr"
  | "open_by_handle_at"
  | "io_uring_setup"
  | "io_uring_enter"
  | "io_uring_register"
  | "syslog"
  | "reboot"
  | "swapon"
  | "swapoff"
  | "acct";

interface ArchitectureTable {
  readonly arch: number;
  readonly denied: Readonly<Record<DeniedCall, number>>;
  readonly socket: number;
  readonly socketpair: number;
}

/**
 * System call numbers per architecture (from the kernel's `unistd_64.h` and the generic
 * `unistd.h` that arm64 uses). Denied: debugging other processes and reading their memory,
 * loading code into the kernel (BPF, modules, kexec), kernel keyrings (shared with every
 * process of the same user outside), mounts and namespaces, io_uring (its operations
 * bypass this filter), the kernel log, and switching the machine's swap, accounting or power.
 */
export const SYSCALL_TABLES: Readonly<Record<keyof typeof AUDIT_ARCH, ArchitectureTable>> = {
  x86_64: {
    arch: AUDIT_ARCH.x86_64,
    socket: 41,
    socketpair: 53,
    denied: {
      ptrace: 101,
      process_vm_readv: 310,
      process_vm_writev: 311,
      bpf: 321,
      perf_event_open: 298,
      userfaultfd: 323,
      keyctl: 250,
      add_key: 248,
      request_key: 249,
      kexec_load: 246,
      kexec_file_load: 320,
      init_module: 175,
      finit_module: 313,
      delete_module: 176,
      mount: 165,
      umount2: 166,
      pivot_root: 155,
      chroot: 161,
      unshare: 272,
      setns: 308,
      open_tree: 428,
      move_mount: 429,
      fsopen: 430,
      fsconfig: 431,
      fsmount: 432,
      fspick: 433,
      mount_setattr: 442,
      open_by_handle_at: 304,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      syslog: 103,
      reboot: 169,
      swapon: 167,
      swapoff: 168,
      acct: 163,
    },
  },
  aarch64: {
    arch: AUDIT_ARCH.aarch64,
    socket: 198,
    socketpair: 199,
    denied: {
      ptrace: 117,
      process_vm_readv: 270,
      process_vm_writev: 271,
      bpf: 280,
      perf_event_open: 241,
      userfaultfd: 282,
      keyctl: 219,
      add_key: 217,
      request_key: 218,
      kexec_load: 104,
      kexec_file_load: 294,
      init_module: 105,
      finit_module: 273,
      delete_module: 106,
      mount: 40,
      umount2: 39,
      pivot_root: 41,
      chroot: 51,
      unshare: 97,
      setns: 268,
      open_tree: 428,
      move_mount: 429,
      fsopen: 430,
      fsconfig: 431,
      fsmount: 432,
      fspick: 433,
      mount_setattr: 442,
      open_by_handle_at: 265,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      syslog: 116,
      reboot: 142,
      swapon: 224,
      swapoff: 225,
      acct: 89,
    },
  },
};

// Classic BPF opcodes used here.
const LD_W_ABS = 0x20;
const ALU_AND_K = 0x54;
const JMP_JEQ_K = 0x15;
const JMP_JSET_K = 0x45;
const RET_K = 0x06;

const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** Low 32 bits of args[i] on the little-endian machines the filter supports. */
const argumentOffset = (index: number) => 16 + 8 * index;

type Target = string | "next";
type Instruction =
  | { readonly label?: string; readonly code: number; readonly k: number }
  | {
      readonly label?: string;
      readonly code: number;
      readonly k: number;
      readonly yes: Target;
      readonly no: Target;
    };

/** One architecture's part: x32 numbers, the denied list, then socket and socketpair rules. */
function architectureBlock(name: string, table: ArchitectureTable): Instruction[] {
  const block: Instruction[] = [{ label: name, code: LD_W_ABS, k: OFFSET_NR }];
  if (table.arch === AUDIT_ARCH.x86_64) {
    block.push({ code: JMP_JSET_K, k: X32_SYSCALL_BIT, yes: "deny", no: "next" });
  }
  for (const number of Object.values(table.denied)) {
    block.push({ code: JMP_JEQ_K, k: number, yes: "deny", no: "next" });
  }
  block.push(
    { code: JMP_JEQ_K, k: table.socket, yes: `${name}-socket`, no: "next" },
    { code: JMP_JEQ_K, k: table.socketpair, yes: `${name}-socketpair`, no: "allow" },
    // socket(): no Unix sockets (they reach host services through any path or name the
    // filesystem view missed), no vsock (a virtual machine's host).
    { label: `${name}-socket`, code: LD_W_ABS, k: argumentOffset(0) },
    { code: JMP_JEQ_K, k: AF_UNIX, yes: "deny", no: "next" },
    { code: JMP_JEQ_K, k: AF_VSOCK, yes: "deny", no: "allow" },
    // socketpair(): connected stream and seqpacket pairs only; a datagram socket could be
    // pointed at a host socket's path with sendto().
    { label: `${name}-socketpair`, code: LD_W_ABS, k: argumentOffset(1) },
    { code: ALU_AND_K, k: SOCK_TYPE_MASK },
    { code: JMP_JEQ_K, k: SOCK_STREAM, yes: "allow", no: "next" },
    { code: JMP_JEQ_K, k: SOCK_SEQPACKET, yes: "allow", no: "deny" },
  );
  return block;
}

function assemble(instructions: readonly Instruction[]): Buffer {
  const labels = new Map<string, number>();
  instructions.forEach((instruction, index) => {
    if (instruction.label !== undefined) labels.set(instruction.label, index);
  });
  const offset = (from: number, target: Target): number => {
    if (target === "next") return 0;
    const to = labels.get(target);
    if (to === undefined) throw new Error(`seccomp filter: no label ${target}`);
    const distance = to - from - 1;
    if (distance < 0 || distance > 255) throw new Error(`seccomp filter: jump to ${target}`);
    return distance;
  };
  const program = Buffer.alloc(instructions.length * 8);
  instructions.forEach((instruction, index) => {
    const base = index * 8;
    program.writeUInt16LE(instruction.code, base);
    if ("yes" in instruction) {
      program.writeUInt8(offset(index, instruction.yes), base + 2);
      program.writeUInt8(offset(index, instruction.no), base + 3);
    }
    program.writeUInt32LE(instruction.k >>> 0, base + 4);
  });
  return program;
}

/**
 * The sandbox's seccomp program as the bytes of a `struct sock_filter` array (what
 * `bwrap --seccomp FD` reads). Architectures other than x86_64 and arm64 are killed, so a
 * 32-bit call table cannot be used to slip past the numbers above.
 */
export function buildSeccompFilter(): Buffer {
  return assemble([
    { code: LD_W_ABS, k: OFFSET_ARCH },
    { code: JMP_JEQ_K, k: AUDIT_ARCH.x86_64, yes: "x86_64", no: "next" },
    { code: JMP_JEQ_K, k: AUDIT_ARCH.aarch64, yes: "aarch64", no: "kill" },
    ...architectureBlock("x86_64", SYSCALL_TABLES.x86_64),
    ...architectureBlock("aarch64", SYSCALL_TABLES.aarch64),
    { label: "allow", code: RET_K, k: SECCOMP_RET.allow },
    { label: "deny", code: RET_K, k: SECCOMP_RET.errno | EPERM },
    { label: "kill", code: RET_K, k: SECCOMP_RET.killProcess },
  ]);
}
