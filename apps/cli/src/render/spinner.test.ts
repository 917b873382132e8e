import { PassThrough } from "node:stream";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createSpinner } from "./spinner.js";

function terminal(): { stream: PassThrough & { isTTY: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY: true });
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

it("draws a dim frame in a terminal", () => {
  vi.stubEnv("NO_COLOR", "");
  vi.stubEnv("TERM", "xterm-256color");
  const { stream, text } = terminal();
  const spinner = createSpinner(stream, true);
  spinner.start("thinking");
  vi.advanceTimersByTime(80);
  spinner.stop();
  expect(text()).toBe("\r\x1b[2K\x1b[2m⠙ thinking\x1b[22m\r\x1b[2K");
});

it("is not dim with NO_COLOR set", () => {
  vi.stubEnv("NO_COLOR", "1");
  const { stream, text } = terminal();
  const spinner = createSpinner(stream, true);
  spinner.start("thinking");
  vi.advanceTimersByTime(80);
  spinner.stop();
  expect(text()).toBe("\r\x1b[2K⠙ thinking\r\x1b[2K");
});

it("draws nothing when disabled", () => {
  const { stream, text } = terminal();
  const spinner = createSpinner(stream, false);
  spinner.start("thinking");
  vi.advanceTimersByTime(800);
  spinner.stop();
  expect(text()).toBe("");
});

it("shows the whole seconds since the time it is given", () => {
  vi.stubEnv("NO_COLOR", "1");
  const { stream, text } = terminal();
  const spinner = createSpinner(stream, true);
  spinner.start("waiting for the model", performance.now() - 3_000);
  vi.advanceTimersByTime(80);
  spinner.stop();
  expect(text()).toBe("\r\x1b[2K⠙ waiting for the model 3 s\r\x1b[2K");
});
