import { expect, it } from "vitest";
import { FETCH_DESCRIPTION } from "./description.js";

it("keeps the fetch description the model reads unchanged unless updated on purpose", () => {
  expect(FETCH_DESCRIPTION).toMatchSnapshot();
});
