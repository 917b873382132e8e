import { yaml } from "../config-loader/yaml.js";

const SIMPLE_KEY = /^([A-Za-z0-9_-]+):(?:[ \t]+(.*))?$/;
/** Plain text YAML reads as a string: no indicator first, no `: ` or ` #` inside, not a number, boolean or null. */
const PLAIN =
  /^(?![-?:,[\]{}#&*!|>'"%@`]|(?:true|false|yes|no|on|off|null|~|[-+]?[0-9.][0-9._eExXoOa-fA-F:+-]*)$)(?!.*(?:: | #|:$))[^\t\\]*$/i;

function simpleValue(text: string): { value: unknown } | undefined {
  const value = text.trim();
  if (PLAIN.test(value)) return { value };
  const quoted = /^'([^']*)'$/.exec(value) ?? /^"([^"\\]*)"$/.exec(value);
  if (quoted) return { value: quoted[1] };
  const list = /^\[([^[\]{}'"#]*)\]$/.exec(value);
  if (list) {
    const items = (list[1] ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
    if (items.every((item) => PLAIN.test(item))) return { value: items };
  }
  return undefined;
}

/**
 * Parses the YAML front matter of a skill or command. Front matter is nearly always flat
 * `key: text` lines; those are read here, and anything else (block scalars, nested maps,
 * numbers, anchors) by the yaml package, which is then loaded. Start-up with many skills
 * thus pays neither yaml's load nor its parse (docs/explanation/start-up-and-memory.md).
 * Throws what yaml throws for text that is not YAML.
 */
export function parseFrontMatter(text: string): unknown {
  const fields: Record<string, unknown> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "" || /^\s*#/.test(line)) continue;
    const match = SIMPLE_KEY.exec(line);
    const parsed = match?.[2] === undefined ? undefined : simpleValue(match[2]);
    if (!match?.[1] || !parsed || Object.hasOwn(fields, match[1])) return yaml().parse(text);
    fields[match[1]] = parsed.value;
  }
  return fields;
}
