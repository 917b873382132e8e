/**
 * How a text value (an environment variable, or a flag commander left as text) becomes a
 * config value. A text that does not convert is passed on unchanged, so the schema
 * rejects it and the message shows what was given.
 */
export type ValueKind = "text" | "number" | "boolean" | "list" | "numberList" | "fractionOrOff";

/** The key of the selected provider's model: `provider.<type>.model` (`provider.local.model_path`). */
export const SELECTED_MODEL_KEY = "provider.<type>.model";

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

function toNumber(text: string): number | string {
  const trimmed = text.trim().replace(/_/g, "");
  return NUMBER.test(trimmed) ? Number(trimmed) : text;
}

function toList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** Converts `text` to the kind of value a key holds. */
export function convertText(text: string, kind: ValueKind): unknown {
  switch (kind) {
    case "text":
      return text.trim();
    case "number":
      return toNumber(text);
    case "boolean": {
      const word = text.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      return text;
    }
    case "list":
      return toList(text);
    case "numberList":
      return toList(text).map(toNumber);
    case "fractionOrOff": {
      const word = text.trim().toLowerCase();
      return word === "false" || word === "off" || word === "no" ? false : toNumber(text);
    }
  }
}

/** Splits `agent.max_turns` into segments, resolving {@link SELECTED_MODEL_KEY}. */
export function keySegments(key: string, providerType: string | undefined): string[] | undefined {
  if (key !== SELECTED_MODEL_KEY) return key.split(".");
  if (providerType === undefined) return undefined;
  return providerType === "local"
    ? ["provider", "local", "model_path"]
    : ["provider", providerType, "model"];
}
