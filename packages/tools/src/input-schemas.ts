// The zod input schemas of the built-in tools: the single source of what each tool accepts.
// Only a tool's first call loads this module (each tool's `loadInputSchema`); what the model
// reads is generated from it into model-input-schemas.generated.ts, and
// model-input-schemas.test.ts fails when the two disagree
// (docs/explanation/launch-path.md).
import { z } from "zod";

/** `copy_path` and `move_path`. */
const transferInput = z
  .object({
    source: z.string(),
    destination: z.string().describe("The new path itself, not a parent directory"),
    overwrite: z.boolean().default(false).describe("Replace an existing destination"),
  })
  .strict();

const createDirectoryInput = z
  .object({
    path: z.string(),
  })
  .strict();

const deletePathInput = z
  .object({
    path: z.string(),
    recursive: z
      .boolean()
      .default(false)
      .describe("Required for a directory: deletes everything in it"),
  })
  .strict();

const diffFilesInput = z
  .object({
    path_a: z.string().describe("Old file"),
    path_b: z.string().describe("New file"),
  })
  .strict();

const editFileInput = z
  .object({
    path: z.string(),
    mode: z.enum(["edit", "create", "overwrite", "append"]),
    content: z.string().describe("The replacement, the whole file or the text to append"),
    old_text: z.string().optional().describe("For mode edit: the exact text to replace"),
  })
  .strict();

const fetchInput = z.object({ url: z.string().min(1) }).strict();

const fileMetadataInput = z
  .object({
    path: z.string(),
  })
  .strict();

const findPathInput = z
  .object({
    glob: z.string().min(1),
    offset: z.number().int().min(0).default(0).describe("Results to skip"),
    limit: z.number().int().min(1).default(50).describe("At most 1000"),
  })
  .strict();

const grepInput = z
  .object({
    pattern: z.string().min(1).describe("No slashes or flags"),
    path: z.string().default(".").describe("Directory or file"),
    include: z.string().optional().describe("Glob, e.g. *.ts or src/**/*.ts"),
    exclude: z.string().optional().describe("Glob to skip"),
    case_sensitive: z.boolean().default(true),
    context_lines: z.number().int().min(0).max(10).default(0).describe("Lines around each match"),
    max_results: z.number().int().min(1).default(100).describe("At most 1000"),
  })
  .strict();

const listDirectoryInput = z
  .object({
    path: z.string().describe("'.' for the root"),
    recursive: z.boolean().default(false).describe("Include subdirectories"),
    pattern: z.string().optional().describe("Name filter, e.g. *.ts"),
  })
  .strict();

const markInstructionDoneInput = z
  .object({ number: z.number().int().min(1).describe("The instruction's number") })
  .strict();

const planInput = z
  .object({
    path: z.string(),
  })
  .strict();

const readFileInput = z
  .object({
    path: z.string(),
    start_line: z.number().int().min(1).optional().describe("1-based"),
    end_line: z.number().int().min(1).optional().describe("Inclusive; default: the last line"),
  })
  .strict();

const terminalInput = z
  .object({
    command: z.string().min(1),
    cwd: z.string().default("."),
    timeout_seconds: z.number().int().min(1).optional().describe("Stop it after this many seconds"),
  })
  .strict();

const writeFileInput = z
  .object({
    path: z.string(),
    content: z.string().describe("The complete new content"),
  })
  .strict();

/** Each built-in tool's input schema, by tool name. */
export const INPUT_SCHEMAS = {
  copy_path: transferInput,
  move_path: transferInput,
  create_directory: createDirectoryInput,
  delete_path: deletePathInput,
  diff_files: diffFilesInput,
  edit_file: editFileInput,
  fetch: fetchInput,
  file_metadata: fileMetadataInput,
  find_path: findPathInput,
  grep: grepInput,
  list_directory: listDirectoryInput,
  mark_instruction_done: markInstructionDoneInput,
  plan: planInput,
  read_file: readFileInput,
  terminal: terminalInput,
  write_file: writeFileInput,
} as const;
