import { expect, it } from "vitest";
import { COPY_PATH_DESCRIPTION } from "./copy-path.js";
import { CREATE_DIRECTORY_DESCRIPTION } from "./create-directory.js";
import { DELETE_PATH_DESCRIPTION } from "./delete-path.js";
import { DIFF_FILES_DESCRIPTION } from "./diff-files.js";
import { EDIT_FILE_DESCRIPTION } from "./edit-file.js";
import { FILE_METADATA_DESCRIPTION } from "./file-metadata.js";
import { FIND_PATH_DESCRIPTION } from "./find-path.js";
import { GREP_DESCRIPTION } from "./grep.js";
import { MOVE_PATH_DESCRIPTION } from "./move-path.js";
import { WRITE_FILE_DESCRIPTION } from "./write-file.js";

it("keeps the file tool descriptions the model reads unchanged unless updated on purpose", () => {
  expect({
    write_file: WRITE_FILE_DESCRIPTION,
    edit_file: EDIT_FILE_DESCRIPTION,
    copy_path: COPY_PATH_DESCRIPTION,
    move_path: MOVE_PATH_DESCRIPTION,
    delete_path: DELETE_PATH_DESCRIPTION,
    create_directory: CREATE_DIRECTORY_DESCRIPTION,
    file_metadata: FILE_METADATA_DESCRIPTION,
    find_path: FIND_PATH_DESCRIPTION,
    grep: GREP_DESCRIPTION,
    diff_files: DIFF_FILES_DESCRIPTION,
  }).toMatchSnapshot();
});
