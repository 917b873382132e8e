import type { EvalReport } from "./eval-report.js";
import { FAILURE_KINDS, type FailureKind } from "./failure-kind.js";
import { percent } from "./render-text.js";

/** A colour per failure kind, distinguishable for the common colour-vision deficiencies. */
const KIND_COLOURS: Readonly<Record<FailureKind, string>> = {
  "no-tool-call": "#E69F00",
  "malformed-tool-call": "#D55E00",
  loop: "#CC79A7",
  limit: "#F0E442",
  timeout: "#56B4E9",
  refused: "#0072B2",
  "provider-error": "#999999",
  crash: "#000000",
  expectation: "#882255",
};

function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (character) =>
      ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[character] ??
      character,
  );
}

const ROW = 22;
const LABEL_WIDTH = 220;
const BAR_WIDTH = 360;

/**
 * The report as an SVG chart (`chart.svg` in `--out`), readable without a browser's
 * scripts: a bar per case with its pass rate (green passed, red failed), then a bar per
 * failure kind with its count of failed runs.
 */
export function renderChart(report: EvalReport): string {
  const parts: string[] = [];
  let y = 30;
  const text = (x: number, at: number, value: string, extra = "") =>
    parts.push(`<text x="${x}" y="${at}"${extra}>${escapeXml(value)}</text>`);
  text(
    10,
    y,
    `${report.suite}: ${report.provider} ${report.model}, ${report.summary.passed} of ${report.summary.cases} cases, pass rate ${percent(report.summary.passRate)}`,
    ' font-weight="bold"',
  );
  y += 24;
  text(10, y, "Pass rate per case", ' font-weight="bold"');
  y += 8;
  for (const item of report.cases) {
    const passedWidth = Math.round(BAR_WIDTH * item.passRate);
    text(10, y + 15, item.id.length > 30 ? `${item.id.slice(0, 29)}…` : item.id);
    parts.push(
      `<rect x="${LABEL_WIDTH}" y="${y + 3}" width="${passedWidth}" height="${ROW - 6}" fill="#009E73"><title>${escapeXml(`${item.id}: ${percent(item.passRate)}`)}</title></rect>`,
      `<rect x="${LABEL_WIDTH + passedWidth}" y="${y + 3}" width="${BAR_WIDTH - passedWidth}" height="${ROW - 6}" fill="#D55E00" fill-opacity="0.35"/>`,
    );
    text(LABEL_WIDTH + BAR_WIDTH + 8, y + 15, percent(item.passRate));
    y += ROW;
  }
  y += 20;
  text(10, y, "Failed runs by kind", ' font-weight="bold"');
  y += 8;
  const most = Math.max(1, ...FAILURE_KINDS.map((kind) => report.summary.failures[kind]));
  for (const kind of FAILURE_KINDS) {
    const count = report.summary.failures[kind];
    text(10, y + 15, kind);
    parts.push(
      `<rect x="${LABEL_WIDTH}" y="${y + 3}" width="${Math.round((BAR_WIDTH * count) / most)}" height="${ROW - 6}" fill="${KIND_COLOURS[kind]}"><title>${escapeXml(`${kind}: ${count}`)}</title></rect>`,
    );
    text(LABEL_WIDTH + Math.round((BAR_WIDTH * count) / most) + 8, y + 15, String(count));
    y += ROW;
  }
  const height = y + 16;
  const width = LABEL_WIDTH + BAR_WIDTH + 70;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...parts,
    "</svg>",
    "",
  ].join("\n");
}
