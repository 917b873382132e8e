import { expect, it } from "vitest";
import { displayWidth } from "./display-width.js";

it("counts the columns a terminal gives each character", () => {
  expect(displayWidth("plain text")).toBe(10);
  expect(displayWidth("日本語")).toBe(6);
  expect(displayWidth("ｆｕｌｌ")).toBe(8);
  expect(displayWidth("e\u0301té")).toBe(3);
  expect(displayWidth("ok 👍")).toBe(5);
  expect(displayWidth("★ Ω")).toBe(3);
});

it("gives the renderer's escape sequences no width", () => {
  expect(displayWidth("\x1b[1mbold\x1b[22m \x1b[36mcode\x1b[39m")).toBe(9);
  expect(displayWidth("\x1b[4m日本\x1b[24m")).toBe(4);
});
