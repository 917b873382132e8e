/**
 * zod compiles an object schema into a function (`new Function`) the first time it parses
 * with it. A command parses most of its schemas once or a few times (the configuration,
 * each tool's input), so the compiling costs more than it saves: ~20 ms of `xzatoma run`'s
 * start before its first model request (docs/explanation/start-up-and-memory.md). The CLI
 * turns it off before any command runs. zod keeps the setting on `globalThis`, so a tool
 * package the CLI loads, with its own zod, parses the same way; the answers do not change.
 */
export async function useJitlessZod(): Promise<void> {
  const { config } = await import("zod");
  config({ jitless: true });
}
