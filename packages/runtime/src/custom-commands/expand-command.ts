import type { CustomCommand } from "./command-file.js";

/** `/name rest`: the invocation of a command at the start of a prompt, or undefined. */
export function parseInvocation(prompt: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z0-9][A-Za-z0-9_:-]*)(?:[ \t]+([\s\S]*))?$/.exec(prompt.trim());
  if (!match?.[1]) return undefined;
  return { name: match[1], args: (match[2] ?? "").trim() };
}

/** Splits arguments as a shell would for words: spaces separate, quotes group. */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  for (const match of args.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    words.push(match[1]?.replace(/\\(.)/g, "$1") ?? match[2] ?? match[3] ?? "");
  }
  return words;
}

/**
 * The prompt a command makes of its arguments: `$ARGUMENTS` is all of them as typed, `$1`
 * to `$9` the words (quotes group words; a missing one is empty). A template that uses
 * neither gets the arguments appended on a line of their own, so they are never lost.
 *
 * @example
 * expandCommand(command, 'src/a.ts "be brief"'); // "Review src/a.ts. Style: be brief"
 */
export function expandCommand(command: CustomCommand, args: string): string {
  const words = splitArguments(args);
  let used = false;
  const text = command.template.replace(
    /\$(ARGUMENTS|[1-9])(?![0-9A-Za-z_])/g,
    (_, key: string) => {
      used = true;
      return key === "ARGUMENTS" ? args : (words[Number(key) - 1] ?? "");
    },
  );
  return used || args.length === 0 ? text : `${text}\n\n${args}`;
}
