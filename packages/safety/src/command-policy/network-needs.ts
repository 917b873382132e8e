import type { Arg, ArgvContext } from "./context.js";
import { NETWORK_PROGRAMS, NETWORK_SUBCOMMANDS } from "./network-needs.data.js";

/** The first argument that is not an option (`npm --silent install` → `install`), or "". */
function subcommandOf(args: readonly Arg[]): string {
  return args.slice(1).find((arg) => !arg.value.startsWith("-"))?.value ?? "";
}

/**
 * Records a `network` escalation when the command needs the network: a network program, a
 * subcommand that fetches, `python -m pip install`, or a `/dev/tcp` path (bash opens a
 * connection for it). Returns whether it did.
 */
export function checkNetworkNeed(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  let needs = NETWORK_PROGRAMS.has(name);
  let shown = name;
  const subcommands = NETWORK_SUBCOMMANDS.get(name);
  if (!needs && subcommands !== undefined) {
    const subcommand = subcommandOf(args);
    needs = subcommands.has(subcommand);
    shown = `${name} ${subcommand}`.trim();
  }
  if (!needs && /^python[0-9.]*$/.test(name)) {
    const module = args.findIndex((arg) => arg.value === "-m");
    const rest = module === -1 ? [] : args.slice(module + 1);
    const pip = rest[0]?.value;
    if (pip === "pip" || pip === "ensurepip" || pip === "venv") {
      needs = pip === "pip" && ["install", "download", "wheel"].includes(rest[1]?.value ?? "");
      shown = `${name} -m pip ${rest[1]?.value ?? ""}`.trim();
    }
  }
  if (
    !needs &&
    args.some((arg) => arg.value.includes("/dev/tcp/") || arg.value.includes("/dev/udp/"))
  ) {
    needs = true;
    shown = `${name} /dev/tcp`;
  }
  if (!needs) return false;
  ctx.findings.escalate(
    "network",
    `\`${shown}\` needs the network, which the sandbox gives only to hosts a person allows.`,
  );
  return true;
}
