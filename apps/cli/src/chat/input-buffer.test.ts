import { expect, it } from "vitest";
import {
  bufferOf,
  deleteBackward,
  deleteToLineStart,
  deleteWordBackward,
  EMPTY_BUFFER,
  insert,
  moveHorizontally,
  moveToLineEdge,
  moveVertically,
} from "./input-buffer.js";

it("inserts and deletes at the cursor, a surrogate pair as one character", () => {
  let buffer = insert(EMPTY_BUFFER, "ab😀");
  buffer = deleteBackward(buffer);
  expect(buffer).toEqual({ text: "ab", cursor: 2 });
  buffer = moveHorizontally(insert(buffer, "😀c"), -1);
  buffer = moveHorizontally(buffer, -1);
  expect(buffer.cursor).toBe(2);
});

it("moves between the lines of a message, keeping the column, and says when there is none", () => {
  const buffer = bufferOf("first line\nab\nthird line");
  expect(moveVertically(buffer, 1)).toBeUndefined();
  const up = moveVertically(buffer, -1);
  expect(up?.cursor).toBe("first line\nab".length);
  const top = moveVertically(up ?? buffer, -1);
  expect(top?.cursor).toBe(2);
  expect(moveVertically(top ?? buffer, -1)).toBeUndefined();
});

it("edits the cursor's line only: Ctrl-U, Home, Ctrl-W", () => {
  const buffer = bufferOf("keep this\ndrop these words");
  expect(deleteToLineStart(buffer).text).toBe("keep this\n");
  expect(moveToLineEdge(buffer, "start").cursor).toBe("keep this\n".length);
  expect(deleteWordBackward(buffer).text).toBe("keep this\ndrop these ");
});
