/**
 * zod compiles an object schema into a function (`new Function`) the first time it parses
 * with it. A command parses most of its schemas once or a few times (the configuration,
 * each tool's input), so the compiling costs more than it saves: ~20 ms of `xzatoma run`'s
 * start before its first model request (docs/explanation/start-up-and-memory.md). The CLI
 * turns it off before any command runs.
 *
 * Without importing zod: a run that neither reports a configuration problem nor validates a
 * tool call loads no zod at all (docs/explanation/launch-path.md). zod keeps its settings in
 * `globalThis.__zod_globalConfig`, which it creates only when absent, so the setting made here
 * is the one every copy of zod reads when it loads (a tool package the CLI loads, with its own
 * zod, parses the same way); zod-settings.test.ts fails if zod stops reading it.
 */
export async function useJitlessZod(): Promise<void> {
  const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  holder.__zod_globalConfig ??= {};
  holder.__zod_globalConfig["jitless"] = true;
}
