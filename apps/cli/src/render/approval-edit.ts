import type { ApprovalRequest } from "@xzatoma/core";
import { needsEscaping } from "./terminal-safe.js";

/** The part of a call a person edits at an approval question, as plain text. */
export interface EditableField {
  /** The input key: `command`, `path`, `url`, ... */
  readonly key: string;
  /** Its value now, offered in the line editor (empty when the editor cannot show it). */
  readonly value: string;
  /** The value has several lines or characters shown as escapes: it must be typed anew. */
  readonly retype: boolean;
}

/** The keys a person means when they edit a call, first found first. */
const PREFERRED = ["command", "path", "url", "destination", "source", "query", "pattern"];

/**
 * Which input value an edit at the approval question changes, so that nobody edits JSON:
 * the command line of a `terminal` call, the path of a write or edit, the URL of a fetch;
 * otherwise the first text value. Undefined when the input has no text value at all.
 */
export function editableField(request: ApprovalRequest): EditableField | undefined {
  const input = request.input;
  if (input === null || typeof input !== "object" || Array.isArray(input)) return undefined;
  const fields = input as Record<string, unknown>;
  const textKeys = Object.keys(fields).filter((key) => typeof fields[key] === "string");
  const key =
    PREFERRED.find((name) => textKeys.includes(name)) ??
    textKeys.find((name) => !String(fields[name]).includes("\n")) ??
    textKeys[0];
  if (key === undefined) return undefined;
  const value = String(fields[key]);
  // The line editor prints its text raw and submits at a newline.
  const retype = value.includes("\n") || needsEscaping(value, { strict: true, keepTabs: false });
  return { key, value: retype ? "" : value, retype };
}

/** The call's input with the edited value in place of the old one. */
export function withEditedField(
  request: ApprovalRequest,
  field: EditableField,
  edited: string,
): Record<string, unknown> {
  return { ...(request.input as Record<string, unknown>), [field.key]: edited };
}
