import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { TrustSubject } from "./skill-trust.js";

/**
 * Whether a skill's or a command's file still has the content it was discovered (and
 * trusted) with. An unreadable file counts as changed.
 */
export function fileUnchanged(subject: TrustSubject): boolean {
  try {
    return createHash("sha256").update(readFileSync(subject.file)).digest("hex") === subject.sha256;
  } catch {
    return false;
  }
}
