import type { Arg } from "./context.js";
import { literalArg } from "./context.js";
import { optionValues, parseOptions, type OptionTable } from "./option-scan.js";

/** How a wrapper takes its own options before the command it runs. */
interface WrapperSpec {
  readonly options: OptionTable;
  /** Operands of the wrapper itself before the command (`timeout 10`, `chroot DIR`). */
  readonly leading?: number;
  /** `NAME=VALUE` operands before the command set its environment (`env`, `sudo`). */
  readonly assignments?: boolean;
  /** Options after which no command runs (`command -v`). */
  readonly noCommand?: readonly string[];
}

const STOP = { stopAtOperand: true } as const;

/** Programs that run another program given in their arguments, with how to find it. */
const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  [
    "env",
    {
      options: {
        ...STOP,
        shortValue: "uCSP",
        longValue: [
          "unset",
          "chdir",
          "split-string",
          "block-signal",
          "default-signal",
          "ignore-signal",
          "argv0",
        ],
      },
      assignments: true,
    },
  ],
  ["command", { options: { ...STOP, shortFlag: "pvV" }, noCommand: ["-v", "-V"] }],
  ["builtin", { options: STOP }],
  ["exec", { options: { ...STOP, shortValue: "a" } }],
  [
    "nice",
    {
      options: {
        ...STOP,
        shortValue: "n",
        longValue: ["adjustment"],
        numeric: true,
        // `nice -5n` is one (invalid) adjustment: no letter after the digits is an option.
        numericUnits: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
      },
    },
  ],
  [
    "timeout",
    { options: { ...STOP, shortValue: "sk", longValue: ["signal", "kill-after"] }, leading: 1 },
  ],
  ["nohup", { options: STOP }],
  ["time", { options: { ...STOP, shortValue: "fo", longValue: ["format", "output"] } }],
  [
    "sudo",
    {
      options: {
        ...STOP,
        shortValue: "CDghpRrTtUu",
        longValue: [
          "close-from",
          "chdir",
          "group",
          "host",
          "prompt",
          "chroot",
          "role",
          "type",
          "command-timeout",
          "other-user",
          "user",
        ],
      },
      assignments: true,
    },
  ],
  ["doas", { options: { ...STOP, shortValue: "uC" } }],
  ["pkexec", { options: { ...STOP, longValue: ["user"] } }],
  ["busybox", { options: STOP }],
  ["stdbuf", { options: { ...STOP, shortValue: "ioe", longValue: ["input", "output", "error"] } }],
  [
    "ionice",
    {
      options: {
        ...STOP,
        shortValue: "cnpPu",
        longValue: ["class", "classdata", "pid", "pgid", "uid"],
      },
    },
  ],
  ["setsid", { options: STOP }],
  ["chroot", { options: { ...STOP, longValue: ["userspec", "groups"] }, leading: 1 }],
  [
    "unshare",
    {
      options: {
        ...STOP,
        shortValue: "S",
        longValue: ["setuid", "setgid", "wd", "root", "propagation", "map-user", "map-group"],
      },
    },
  ],
  [
    "nsenter",
    {
      options: {
        ...STOP,
        shortValue: "tSGwr",
        longValue: ["target", "setuid", "setgid", "wd", "root"],
      },
    },
  ],
  ["taskset", { options: STOP, leading: 1 }],
  ["chrt", { options: STOP, leading: 1 }],
  ["strace", { options: { ...STOP, shortValue: "abeEIoOpPsSuUX" } }],
  ["ltrace", { options: { ...STOP, shortValue: "aAeEnoplsu" } }],
  ["coproc", { options: STOP }],
  ["catchsegv", { options: STOP }],
  ["fakeroot", { options: STOP }],
  ["unbuffer", { options: STOP }],
  ["proxychains", { options: { ...STOP, shortValue: "f" } }],
  ["proxychains4", { options: { ...STOP, shortValue: "f" } }],
  ["torsocks", { options: STOP }],
  ["caffeinate", { options: { ...STOP, shortValue: "tw" } }],
  ["xvfb-run", { options: { ...STOP, shortValue: "nsfep" } }],
  ["dbus-run-session", { options: STOP }],
  ["firejail", { options: STOP }],
  ["sshpass", { options: { ...STOP, shortValue: "pfdP" } }],
]);

/** Whether `name` runs another program given in its arguments. */
export function isWrapper(name: string): boolean {
  return WRAPPERS.has(name);
}

/** A wrapper taken off its command. */
export interface Unwrapped {
  /** The command the wrapper runs, or empty when it runs none. */
  readonly inner: readonly Arg[];
  /** `NAME=VALUE` settings the wrapper passes to the command's environment. */
  readonly assignments: readonly { readonly name: string; readonly value: string }[];
}

/**
 * Takes the wrapper `args[0]` off its command: skips its options (with their values),
 * its own operands (`timeout 10`) and `NAME=VALUE` settings; `env -S STRING` is split.
 */
export function unwrap(args: readonly Arg[]): Unwrapped {
  const name = args[0]?.value.split("/").pop() ?? "";
  const spec = WRAPPERS.get(name);
  if (spec === undefined) return { inner: [], assignments: [] };
  const parsed = parseOptions(args.slice(1), spec.options);
  if (parsed.options.some((option) => (spec.noCommand ?? []).includes(option.name)))
    return { inner: [], assignments: [] };
  // `env -S 'A=1 cmd args'`: the split string comes first, settings included.
  const split = optionValues(parsed, "-S", "--split-string").flatMap((value) =>
    value.value
      .split(/\s+/)
      .filter((word) => word !== "")
      .map((word) => ({ ...literalArg(word), exact: value.exact })),
  );
  let rest = [...split, ...parsed.operands.slice(spec.leading ?? 0)];
  const assignments: { name: string; value: string }[] = [];
  while (spec.assignments === true && rest[0] !== undefined && /^[^=-][^=]*=/.test(rest[0].value)) {
    const setting = rest[0].value;
    assignments.push({
      name: setting.slice(0, setting.indexOf("=")),
      value: setting.slice(setting.indexOf("=") + 1),
    });
    rest = rest.slice(1);
  }
  return { inner: rest, assignments };
}
