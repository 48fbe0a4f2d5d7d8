// How the demo prints its MCP session: each tool call numbered, with its
// arguments, outcome and time in milliseconds, then a few lines that sum up
// the result (never a whole tree). A call whose outcome is not the one the
// script expects is counted as a failure and the script stops.

import { performance } from "node:perf_hooks";

import { textOf } from "./driver.mjs";

/** How long one tool call may take (the consent dialog included). */
export const CALL_TIMEOUT_MS = 90_000;

const MAX_LINE_CHARS = 110;

/** A failure of the demo, with a message that says what went wrong. */
export class DemoFailure extends Error {}

export const msSince = (t0) => `${(performance.now() - t0).toFixed(0)} ms`;

function cut(s, n = MAX_LINE_CHARS) {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

export function detail(line) {
  console.log(`     | ${cut(line)}`);
}

function briefArgs(args) {
  const s = JSON.stringify(args);
  return s === "{}" ? "" : cut(s, 90);
}

/** The first lines of a text, and how many were left out. */
export function firstLines(text, n) {
  const lines = (text ?? "").replace(/\n+$/, "").split("\n");
  for (const line of lines.slice(0, n)) detail(line);
  if (lines.length > n) detail(`… ${lines.length - n} more lines`);
}

/** An act's diff, one line per row it added, removed or changed. */
export function printDiff(diff, max = 5) {
  if (!diff) return;
  const label = (s) => (s ? ` ${JSON.stringify(cut(s, 40))}` : "");
  const lines = [
    ...(diff.added ?? []).map((r) => `+ [${r.element_index}] ${r.role}${label(r.label)}`),
    ...(diff.removed ?? []).map((r) => `- [${r.element_index}] ${r.role}${label(r.label)}`),
    ...(diff.changed ?? []).map(
      (c) =>
        `~ [${c.element_index}] ${(c.fields ?? []).join(",")}:` +
        (c.label ? ` label=${JSON.stringify(cut(c.label, 40))}` : "") +
        (c.value !== undefined && c.value !== null ? ` value=${JSON.stringify(cut(c.value, 50))}` : "") +
        ((c.fields ?? []).includes("states") && c.states ? ` states=${c.states.join(",")}` : ""),
    ),
  ];
  if (lines.length === 0) detail("diff: nothing changed");
  for (const line of lines.slice(0, max)) detail(`diff ${line}`);
  if (lines.length > max) detail(`diff … ${lines.length - max} more`);
}

/** One-line summaries of each kind of success. */
const summaries = {
  list_windows: (sc) =>
    `${sc.windows.length} window(s), session ${sc.session}: ` +
    sc.windows.map((w) => `${w.app} (pid ${w.pid})`).join(", "),
  start_session: (sc) =>
    `session ${sc.session}, input ${sc.input}, apps ${sc.apps.map((a) => `${a.app} (pid ${a.pid})`).join(", ")}` +
    (sc.lease ? `, lease ${Math.round(sc.lease.remaining_s / 60)} min` : "") +
    (sc.dialog ? ", the person was asked" : ""),
  get_window_state: (sc) =>
    `snapshot ${sc.snapshot_id}, window ${JSON.stringify(cut(sc.window.title, 40))} of ${sc.window.app}: ` +
    `${sc.element_count} rows${sc.skeleton ? " (skeleton)" : ""}${sc.root ? ` under ${sc.root}` : ""}` +
    `${sc.truncated ? ", truncated" : ""}`,
  end_session: (sc) => `session ${sc.session} ended: ${sc.ended}`,
};

function actSummary(sc) {
  return `effect ${sc.effect}, path ${sc.path}, took_cursor ${sc.took_cursor}` +
    (sc.readback ? `, readback ${sc.readback}` : "") +
    (sc.settle ? `, settled in ${sc.settle.ms} ms` : "");
}

/**
 * Runs the numbered tool calls of one MCP session.
 */
export class Session {
  constructor(client) {
    this.client = client;
    this.n = 0;
    /** The snapshot_id of the latest read or act that named one. */
    this.lastSnapshot = null;
  }

  /**
   * Calls a tool and prints it. A failure is a DemoFailure unless its code
   * is tolerate's (one code or a list of them): then the result is returned
   * for the script to handle.
   */
  async call(tool, args = {}, { tolerate, quiet = false } = {}) {
    this.n += 1;
    const t0 = performance.now();
    const result = await this.client.callTool({ name: tool, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    const took = msSince(t0);
    const code = result.isError ? (result.structuredContent?.error?.code ?? "error") : "ok";
    console.log(`\n${String(this.n).padStart(2)}. ${tool} ${briefArgs(args)}`);
    console.log(`    -> ${code} in ${took}`);
    if (result.isError) {
      detail(textOf(result));
      if (![tolerate].flat().includes(code)) throw new DemoFailure(`${tool} failed with ${code}`);
      return result;
    }
    const sc = result.structuredContent;
    if (!sc?.ok) throw new DemoFailure(`${tool} returned no structuredContent`);
    if (sc.snapshot_id) this.lastSnapshot = sc.snapshot_id;
    const summary = summaries[tool] ?? (sc.effect ? actSummary : null);
    if (summary && !quiet) detail(summary(sc));
    if (sc.effect) printDiff(sc.diff);
    return result;
  }
}

/** The image block of a result, as bytes, or null. */
export function imageOf(result) {
  const block = (result.content ?? []).find((c) => c.type === "image");
  return block ? Buffer.from(block.data, "base64") : null;
}
