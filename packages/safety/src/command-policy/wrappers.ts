import type { Arg } from "./context.js";
import { literalArg } from "./context.js";
import { optionValues, parseOptions } from "./option-scan.js";

/**
 * Programs that run another program given in their arguments: for each, its short options
 * that take a value, its long ones, and how many operands of its own come before the
 * program (`timeout 10 cmd`). Every other option is taken to be a flag.
 */
type WrapperSpec = readonly [string, string, number?];
/** Wrappers without options that take a value. */
const PLAIN =
  "command builtin nohup busybox setsid catchsegv fakeroot unbuffer torsocks dbus-run-session";
const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  ...`${PLAIN} firejail`.split(" ").map((name): [string, WrapperSpec] => [name, ["", ""]]),
  ...Object.entries<WrapperSpec>({
    env: ["uCSP", "unset chdir split-string block-signal default-signal ignore-signal argv0"],
    exec: ["a", ""],
    nice: ["n", "adjustment"],
    timeout: ["sk", "signal kill-after", 1],
    time: ["fo", "format output"],
    sudo: ["CDghpRrTtUu", "close-from chdir group host prompt chroot role type user other-user"],
    doas: ["uC", ""],
    pkexec: ["", "user"],
    stdbuf: ["ioe", "input output error"],
    ionice: ["cnpPu", "class classdata pid pgid uid"],
    chroot: ["", "userspec groups", 1],
    unshare: ["S", "setuid setgid wd root propagation map-user map-group"],
    nsenter: ["tSGwr", "target setuid setgid wd root"],
    taskset: ["", "", 1],
    chrt: ["", "", 1],
    flock: ["wE", "timeout conflict-exit-code", 1],
    strace: ["abeEIoOpPsSuUX", ""],
    ltrace: ["aAeEnoplsu", ""],
    proxychains: ["f", ""],
    proxychains4: ["f", ""],
    caffeinate: ["tw", ""],
    "xvfb-run": ["nsfep", ""],
    sshpass: ["pfdP", ""],
  }),
]);

/** Whether `name` runs another program given in its arguments. */
export function isWrapper(name: string): boolean {
  return WRAPPERS.has(name);
}

/**
 * The command the wrapper `args[0]` runs, its options, own operands and `NAME=VALUE`
 * settings skipped (`env -S STRING` is split into words); empty when it runs none
 * (`command -v`).
 */
export function unwrap(args: readonly Arg[]): readonly Arg[] {
  const name = args[0]?.value.split("/").pop() ?? "";
  const [shortValue = "", long = "", leading = 0] = WRAPPERS.get(name) ?? [];
  const parsed = parseOptions(args.slice(1), {
    stopAtOperand: true,
    abbreviations: true,
    shortValue,
    longValue: long.split(" "),
    numeric: name === "nice",
  });
  if (name === "command" && parsed.options.some((o) => o.name === "-v" || o.name === "-V"))
    return [];
  const split = (name === "env" ? optionValues(parsed, "-S", "--split-string") : []).flatMap(
    (value) =>
      value.value
        .split(/\s+/)
        .filter((word) => word !== "")
        .map((word) => ({ ...literalArg(word), known: value.known, plain: false })),
  );
  const rest = [...split, ...parsed.operands.slice(leading)];
  const settings = rest.findIndex((arg) => !/^[^=-][^=]*=/.test(arg.value));
  return settings === -1 ? [] : rest.slice(settings);
}
