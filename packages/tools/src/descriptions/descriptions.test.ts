import { expect, it } from "vitest";
import { LIST_DIRECTORY_DESCRIPTION } from "./list-directory.js";
import { PLAN_DESCRIPTION } from "./plan.js";
import { READ_FILE_DESCRIPTION } from "./read-file.js";
import { TERMINAL_DESCRIPTION } from "./terminal.js";

it("keeps the tool descriptions the model reads unchanged unless updated on purpose", () => {
  expect({
    read_file: READ_FILE_DESCRIPTION,
    list_directory: LIST_DIRECTORY_DESCRIPTION,
    terminal: TERMINAL_DESCRIPTION,
    plan: PLAN_DESCRIPTION,
  }).toMatchSnapshot();
});
