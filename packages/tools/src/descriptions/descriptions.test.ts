import { expect, it } from "vitest";
import { LIST_DIRECTORY_DESCRIPTION } from "./list-directory.js";
import { READ_FILE_DESCRIPTION } from "./read-file.js";

it("keeps the tool descriptions the model reads unchanged unless updated on purpose", () => {
  expect({
    read_file: READ_FILE_DESCRIPTION,
    list_directory: LIST_DIRECTORY_DESCRIPTION,
  }).toMatchSnapshot();
});
