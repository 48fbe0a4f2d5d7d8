// `make demo`: a scripted MCP session against the mock desktop, the way a
// model would drive it, printed step by step with timings. It uses the
// TypeScript SDK client and the built binary (`nish-driver mcp --backend
// mock`), so what it shows is what a real host would see.

import { performance } from "node:perf_hooks";

import { driverBin, startDriver, textOf } from "./driver.mjs";

const MAX_TEXT_LINES = 8;
const MAX_LINE_CHARS = 110;

const ms = (t0) => `${(performance.now() - t0).toFixed(1)} ms`;

function brief(args) {
  const s = JSON.stringify(args);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function printText(text) {
  const lines = text.replace(/\n+$/, "").split("\n");
  for (const line of lines.slice(0, MAX_TEXT_LINES)) {
    console.log(`     | ${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line}`);
  }
  if (lines.length > MAX_TEXT_LINES) console.log(`     | … ${lines.length - MAX_TEXT_LINES} more lines`);
}

// An act's diff, one line per row, so the demo shows what the act changed.
function printDiff(diff) {
  if (!diff) return;
  const lines = [
    ...(diff.added ?? []).map((r) => `+ [${r.element_index}] ${r.role} ${JSON.stringify(r.label ?? "")}`),
    ...(diff.removed ?? []).map((r) => `- [${r.element_index}] ${r.role} ${JSON.stringify(r.label ?? "")}`),
    ...(diff.changed ?? []).map(
      (c) =>
        `~ [${c.element_index}] ${(c.fields ?? []).join(",")}:` +
        (c.label !== undefined ? ` label=${JSON.stringify(c.label)}` : "") +
        (c.value !== undefined && c.value !== null ? ` value=${JSON.stringify(c.value)}` : ""),
    ),
  ];
  for (const line of lines.slice(0, 4)) console.log(`     | diff ${line}`);
  if (lines.length > 4) console.log(`     | diff … ${lines.length - 4} more`);
}

let stepNo = 0;
let unexpected = 0;

/**
 * Sends one tool call, prints it, its time and its text. A failure is
 * expected only when `expect` names its code.
 */
async function step(client, tool, args, { expect } = {}) {
  stepNo += 1;
  const t0 = performance.now();
  const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 15_000 });
  const took = ms(t0);
  const code = result.isError ? result.structuredContent?.error?.code ?? "error" : "ok";
  const surprise = result.isError ? code !== expect : false;
  if (surprise) unexpected += 1;
  console.log(`\n${stepNo}. ${tool} ${brief(args)}`);
  console.log(`   -> ${code} in ${took}${surprise ? "  (UNEXPECTED)" : ""}`);
  printText(textOf(result));
  printDiff(result.structuredContent?.diff);
  return result;
}

function findSave(read) {
  return read?.elements?.find((e) => e.role === "push_button" && e.label === "Save");
}

function findNameEntry(read) {
  const editable = (read?.elements ?? []).filter((e) => !e.secure && (e.states ?? []).includes("editable"));
  return editable.find((e) => /^name\b/i.test(e.label ?? "")) ?? editable[0];
}

async function main() {
  console.log(`nish-driver demo: ${driverBin} mcp --backend mock`);
  const t0 = performance.now();
  const driver = await startDriver({ clientName: "nish-demo" });
  const { client, transport } = driver;
  const info = client.getServerVersion();
  const meta = transport.rawResult("initialize")._meta ?? {};
  console.log(`connected to ${info?.name} ${info?.version} (contract ${meta.contract_version ?? "?"}) in ${ms(t0)}`);

  try {
    const t1 = performance.now();
    const tools = await client.listTools();
    console.log(`tools/list: ${tools.tools.length} tools in ${ms(t1)}`);

    await step(client, "list_windows", {});
    await step(client, "start_session", { apps: ["Form Demo"], purpose: "fill in the demo form" });
    await step(client, "get_window_state", { app: "Form Demo", skeleton: true });
    let read = (await step(client, "get_window_state", { app: "Form Demo" })).structuredContent;

    const save = findSave(read);
    if (save) {
      await step(client, "click", { element_token: save.element_token });
    } else {
      unexpected += 1;
      console.log('\n!! no push_button "Save" in the read; skipping the click');
    }

    let name = findNameEntry(read);
    if (name) {
      let typed = await step(client, "type_text", { element_token: name.element_token, text: " King" }, { expect: "stale_element_token" });
      if (typed.isError) {
        // The click changed the window's structure: read again, as the
        // disposition (after_refresh) says, and retry with a fresh token.
        read = (await step(client, "get_window_state", { app: "Form Demo" })).structuredContent;
        name = findNameEntry(read);
        if (name) typed = await step(client, "type_text", { element_token: name.element_token, text: " King" });
        if (!name || typed.isError) unexpected += 1;
      }
    } else {
      unexpected += 1;
      console.log("\n!! no editable Name entry in the read; skipping type_text");
    }

    await step(client, "press_key", { app: "Form Demo", key: "Return" }, { expect: "requires_takeover" });
    await step(client, "get_session_state", {});
    await step(client, "end_session", {});
  } finally {
    await driver.close();
  }
  console.log(`\ndemo finished in ${ms(t0)}${unexpected ? `, ${unexpected} unexpected result(s)` : ""}`);
  if (unexpected) process.exitCode = 1;
}

main().catch((err) => {
  console.error(`demo failed: ${err?.stack ?? err}`);
  process.exitCode = 1;
});
