// `xzatoma eval` and `xzatoma eval compare`: their options, help and exit codes; the suite
// runner and the comparison are in eval.ts.
import type { Command } from "commander";
import { useJitlessZod } from "../zod-settings.js";
import type { CommandContext } from "./command-action.js";
import { collect, configOptions, positiveInteger } from "./command-options.js";

export function registerEvalCommand(program: Command, { act, setExitCode }: CommandContext): void {
  const evaluate = configOptions(
    program
      .command("eval")
      .description(
        "Run an eval suite (a YAML file of tasks) through the agent and report what passed and how the rest failed (docs/how-to/run-evals.md).",
      )
      .argument("<suite>", "the suite file, e.g. evals/smoke.yaml")
      .option("--repeat <n>", "runs of each case (default 1)", positiveInteger("--repeat"))
      .option("--case <id>", "run only this case (repeatable)", collect)
      .option("--json", "print the report as JSON on stdout (progress goes to stderr)")
      .option("--out <dir>", "write report.json, report.md and chart.svg into this directory")
      .option("--keep", "keep each case's temporary workspace and data directory"),
  )
    .addHelpText(
      "after",
      "\nExit codes: 0 every case passed, 1 a case failed, 2 the suite is not valid (the message names the file, case and field).\n" +
        "Example:\n  xzatoma eval evals/agentic.yaml --provider ollama --model qwen2.5-coder:7b --repeat 3 --out eval-out\n  xzatoma eval compare before/report.json after/report.json",
    )
    .action(
      act(async (call) => {
        const { evalCommand } = await import("./eval.js");
        return evalCommand(
          String(call.arg),
          call.options as Parameters<typeof evalCommand>[1],
          call.source,
        );
      }),
    );
  evaluate
    .command("compare <before> <after>")
    .description("What changed between two eval reports (report.json or --json output).")
    .option("--json", "JSON output")
    .action(async (before: string, after: string, _options: unknown, command: Command) => {
      const { evalCompareCommand } = await import("./eval.js");
      await useJitlessZod();
      // `--json` after the two files is the parent's option to commander: read both.
      setExitCode(await evalCompareCommand(before, after, command.optsWithGlobals()));
    });
}
