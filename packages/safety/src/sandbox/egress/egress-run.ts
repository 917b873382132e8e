// One command's egress: the pipes, the proxy behind them, and the forwarder's command
// line. Started by `prepare` only when the run asks for egress; stopped by `finish`.
import { realpath } from "node:fs/promises";
import { findProgram } from "../find-program.js";
import { createAllowance } from "../../url-guard/allowance.js";
import { systemLookup } from "../../url-guard/guarded-lookup.js";
import { createEgressRecorder, type EgressReport, type SandboxEgress } from "./egress-report.js";
import { serveEgressConnection, type EgressPolicy } from "./egress-proxy.js";
import { forwarderArguments } from "./forwarder-source.js";
import { HostChannel } from "./host-channel.js";
import { createPipePair } from "./pipe-pair.js";

/** A started egress proxy for one command. */
export interface EgressRun {
  /** The Node binary the forwarder runs with (a real path); the sandbox must show it. */
  readonly node: string;
  /** The sandbox's ends of the pipes, to pass as inherited descriptors. */
  readonly childDescriptors: readonly [number, number];
  readonly report: EgressReport;
  /**
   * `command` wrapped in the forwarder, given the numbers the two descriptors of
   * {@link EgressRun.childDescriptors} get in the sandbox, in that order.
   */
  wrap(command: readonly string[], numbers: readonly [number, number]): string[];
  /** Closes every connection and the pipes. Idempotent. */
  stop(): void;
}

/**
 * Starts the proxy for one command: two pipes under `directory` (a private directory of
 * the run), and the proxy serving whatever the forwarder sends. Nothing listens on a host
 * socket.
 */
export async function startEgress(egress: SandboxEgress, directory: string): Promise<EgressRun> {
  const node = await realpath(process.execPath);
  const shell = findProgram("sh", ["/bin/sh", "/usr/bin/sh"], undefined);
  if (shell === undefined) throw new Error("the sandbox's network needs /bin/sh, which is missing");
  const pipes = await createPipePair(directory);
  const recorder = createEgressRecorder(egress.onRefused);
  const policy: EgressPolicy = {
    allowHost: (host, port) => egress.allowHost(host, port),
    addresses: egress.addresses ?? createAllowance(),
    lookup: egress.lookup ?? systemLookup,
  };
  const channel = new HostChannel({ input: pipes.input, output: pipes.output }, (stream) => {
    void serveEgressConnection(stream, policy, recorder).catch(() => stream.destroy());
  });
  return {
    node,
    childDescriptors: [pipes.childRead, pipes.childWrite],
    report: recorder.report,
    wrap: (command, [fromProxy, toProxy]) =>
      forwarderArguments({ shell, node }, { fromProxy, toProxy }, command),
    stop() {
      channel.close();
      pipes.closeChildEnds();
    },
  };
}
