// What the demo's steps share: picking rows out of a read, showing them as
// tree_text does, acting with the one retry the contract allows when the
// window changed, and saving a read's screenshot as a PNG file.

import { writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { DemoFailure, detail, imageOf } from "./demo-steps.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Saves a result's screenshot and prints where it went. */
export function saveScreenshot(result, outDir, name) {
  const png = imageOf(result);
  if (!png) throw new DemoFailure(`no screenshot came back for ${name}`);
  const file = join(outDir, name);
  writeFileSync(file, png);
  const info = result.structuredContent.screenshot ?? {};
  detail(`screenshot ${info.width}x${info.height}, ${png.length} bytes, ${info.blacked_out ?? 0} secure field(s) blacked out -> ${relative(repoRoot, file)}`);
  return file;
}

/** The first row of a read that matches. */
export function find(read, what, test) {
  const row = (read.structuredContent.elements ?? []).find(test);
  if (!row) throw new DemoFailure(`no ${what} in the read`);
  return row;
}

export const hasState = (row, state) => (row.states ?? []).includes(state);

/** Prints the tree_text lines of the given rows. */
export function treeLines(read, indexes) {
  for (const line of read.structuredContent.tree_text.split("\n")) {
    const m = /^\s*\[(\d+)\]/.exec(line);
    if (m && indexes.includes(Number(m[1]))) detail(`  ${line.trim()}`);
  }
}

/**
 * Runs an act on an element picked from the latest read. When the window's
 * structure has changed since that read (stale_element_token, retry
 * after_refresh), it reads again, as the contract says, picks the element
 * anew and retries once. tolerate names one more error code the caller
 * handles itself.
 */
export async function act(s, tool, target, args, pick, { tolerate } = {}) {
  const first = await s.call(tool, { ...args, element_token: pick(target.read).element_token }, { tolerate: [tolerate, "stale_element_token"] });
  if (!first.isError || first.structuredContent?.error?.code !== "stale_element_token") return first;
  target.read = await target.refresh();
  return s.call(tool, { ...args, element_token: pick(target.read).element_token }, { tolerate });
}
