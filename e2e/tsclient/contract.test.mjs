// The contract as an outside MCP client sees it: the TypeScript SDK drives the
// built binary (`nish-driver mcp --backend mock`) over real stdio. The steps
// run in order and share one connection, like a host's session: list, refuse
// without a session, start one, read, act, end. The mock's demo desktop has
// "Form Demo" (a form window with a "Save" push button), "Editor" and "Chat"
// (two windows); its default person allows consent.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";

import { startDriver, textOf } from "./driver.mjs";

// The tools a contract 0.8.0 host knows by name.
const CONTRACT_TOOLS = [
  "list_windows",
  "start_session",
  "get_session_state",
  "end_session",
  "get_window_state",
  "click",
  "double_click",
  "right_click",
  "type_text",
  "set_value",
  "press_key",
  "hotkey",
  "scroll",
  "drag",
  "bring_to_front",
  "move_cursor",
  "clipboard_read",
  "clipboard_write",
  "list_notifications",
  "dismiss_notification",
  "invoke_notification_action",
  "list_app_actions",
  "app_action",
  "health_report",
];

// Tools proposed beyond 0.8.0 (docs/contract.md, "Proposal for the next
// minor version") that this driver serves.
const PROPOSED_TOOLS = ["find_elements", "wait_for"];

// The driver's own tool table (engine/tools.go), so that a tool added there
// but not served over MCP, or served but not in the table, is caught.
const TABLE_TOOLS = [
  ...readFileSync(new URL("../../engine/tools.go", import.meta.url), "utf8").matchAll(/\{Name:\s*"([a-z_]+)"/g),
].map((m) => m[1]);

// The budget of tools/list's result, as the driver's schema package owns it
// (schema/bounds.go: ToolsListBudget = N << 10).
const TOOLS_LIST_BUDGET = (() => {
  const m = readFileSync(new URL("../../schema/bounds.go", import.meta.url), "utf8").match(/const ToolsListBudget = (\d+) << 10/);
  assert.ok(m, "schema/bounds.go states ToolsListBudget");
  return Number(m[1]) * 1024;
})();

const CLIENT_NAME = "nish-e2e-contract";
const STEP_TIMEOUT_MS = 15_000;

/** Asserts a failed call has the contract's envelope and text, and returns its error object. */
function assertFailure(result, code, retry) {
  assert.equal(result.isError, true, `expected isError, got ${JSON.stringify(result)}`);
  const sc = result.structuredContent;
  assert.ok(sc, "a failed call carries structuredContent");
  assert.equal(sc.ok, false);
  assert.equal(sc.error.code, code);
  assert.equal(sc.error.disposition.retry, retry);
  assert.equal(typeof sc.error.message, "string");
  assert.ok(!sc.error.message.includes("\n"), "the message is one line");
  assert.equal(typeof sc.error.suggestion, "string");
  assert.ok(sc.error.suggestion.length > 0, "a suggestion is given");
  const text = textOf(result);
  assert.ok(text.startsWith(`${code}: `), `text starts with "${code}: ", got ${JSON.stringify(text)}`);
  assert.ok(text.includes(`[retry: ${retry}]`), `text names the disposition, got ${JSON.stringify(text)}`);
  return sc.error;
}

/** Asserts a successful call and returns its structuredContent. */
function assertSuccess(result) {
  assert.notEqual(result.isError, true, `expected success, got ${textOf(result)}`);
  const sc = result.structuredContent;
  assert.ok(sc, "a successful call carries structuredContent");
  assert.equal(sc.ok, true);
  return sc;
}

/** The element whose role and label match, from a full read. */
function findElement(read, role, label) {
  return read.elements.find((e) => e.role === role && e.label === label);
}

describe("nish-driver over stdio, driven by the TypeScript MCP SDK", { timeout: 120_000 }, () => {
  let driver;
  let client;
  const call = (name, args = {}) => client.callTool({ name, arguments: args }, undefined, { timeout: STEP_TIMEOUT_MS });

  // Shared across steps, in order.
  let fullRead;

  before(async () => {
    driver = await startDriver({ clientName: CLIENT_NAME });
    client = driver.client;
  });

  after(async () => {
    if (driver) {
      const stderr = driver.stderr().trim();
      if (stderr) process.stderr.write(`--- nish-driver stderr ---\n${stderr}\n`);
      await driver.close();
    }
  });

  it("initializes as nish-driver and reports the contract version", () => {
    const info = client.getServerVersion();
    assert.equal(info?.name, "nish-driver");
    assert.equal(typeof info.version, "string");
    assert.ok(info.version.length > 0);
    const raw = driver.transport.rawResult("initialize");
    assert.equal(raw._meta?.contract_version, "0.8.0", "initialize _meta.contract_version");
    assert.equal(raw._meta?.tools_list_schema_version, 1, "initialize _meta.tools_list_schema_version");
  });

  it("lists every tool of the contract and the tool table, with contract_version in _meta and no output schemas", async () => {
    const listed = await client.listTools(undefined, { timeout: STEP_TIMEOUT_MS });
    const raw = driver.transport.rawResult("tools/list");
    assert.equal(raw._meta?.contract_version, "0.8.0", "tools/list _meta.contract_version");
    assert.equal(raw._meta?.tools_list_schema_version, 1, "tools/list _meta.tools_list_schema_version");
    assert.equal(listed._meta?.contract_version, "0.8.0", "the SDK keeps _meta.contract_version");

    const names = raw.tools.map((t) => t.name);
    assert.equal(new Set(names).size, names.length, "no tool is listed twice");
    for (const name of [...CONTRACT_TOOLS, ...PROPOSED_TOOLS]) assert.ok(names.includes(name), `${name} is listed`);
    const listBytes = Buffer.byteLength(JSON.stringify(raw));
    assert.ok(listBytes <= TOOLS_LIST_BUDGET, `tools/list is ${listBytes} bytes, at most ${TOOLS_LIST_BUDGET}`);
    assert.ok(TABLE_TOOLS.length >= CONTRACT_TOOLS.length, "the tool table was read");
    assert.deepEqual([...names].sort(), [...TABLE_TOOLS].sort(), "tools/list serves exactly the tool table");
    for (const tool of raw.tools) {
      assert.equal(tool.outputSchema, undefined, `${tool.name} advertises no outputSchema`);
      assert.equal(tool.inputSchema?.type, "object", `${tool.name} input schema root is an object`);
      const schemaText = JSON.stringify(tool.inputSchema);
      assert.ok(!schemaText.includes('"$ref"'), `${tool.name} input schema has no $ref`);
      assert.ok(schemaText.length < 12_000, `${tool.name} input schema is under 12,000 bytes`);
      assert.ok(typeof tool.description === "string" && tool.description.length > 0, `${tool.name} has a description`);
    }
  });

  it("lists windows without a session as app names and pids only", async () => {
    const sc = assertSuccess(await call("list_windows"));
    assert.ok(Array.isArray(sc.windows) && sc.windows.length > 0, "some apps are listed");
    for (const row of sc.windows) {
      assert.deepEqual(Object.keys(row).sort(), ["app", "pid"], `row has only app and pid: ${JSON.stringify(row)}`);
      assert.equal(typeof row.app, "string");
      assert.ok(Number.isInteger(row.pid) && row.pid > 0);
    }
    const apps = new Set(sc.windows.map((w) => w.app));
    for (const app of ["Form Demo", "Editor", "Chat"]) {
      assert.ok(apps.has(app), `${app} is listed`);
    }
  });

  it("refuses get_session_state before a session with no_session", async () => {
    assertFailure(await call("get_session_state"), "no_session", "after_refresh");
  });

  it("answers an unknown tool name with a protocol error, not a tool result", async () => {
    await assert.rejects(call("no_such_tool"), (err) => {
      assert.equal(err.code, -32602);
      return true;
    });
  });

  it("starts a headless session for Form Demo (the mock person allows)", async () => {
    const sc = assertSuccess(await call("start_session", { apps: ["Form Demo"] }));
    assert.equal(sc.input, "headless");
    assert.equal(sc.takeover.on, false);
    assert.equal(sc.takeover.paused, false);
    assert.equal(sc.session, `mcp:${CLIENT_NAME}:${process.pid}`, "session id is mcp:<client>:<host pid>");
    assert.ok(sc.apps.some((a) => a.app === "Form Demo"), "Form Demo is approved");
    assert.ok(sc.lease && sc.lease.remaining_s > 0 && sc.lease.remaining_s <= 30 * 60, "a lease of at most 30 minutes runs");
  });

  it("ignores an unknown argument", async () => {
    const sc = assertSuccess(await call("get_session_state", { no_such_argument: 42 }));
    assert.equal(sc.input, "headless");
    assert.equal(sc.session, `mcp:${CLIENT_NAME}:${process.pid}`);
  });

  it("reads Form Demo in full: tree_text opens with the snapshot_id, rows carry tokens", async () => {
    const sc = assertSuccess(await call("get_window_state", { app: "Form Demo" }));
    fullRead = sc;
    assert.equal(typeof sc.snapshot_id, "string");
    assert.ok(sc.snapshot_id.length > 0);
    assert.equal(sc.window.app, "Form Demo");
    assert.notEqual(sc.skeleton, true);
    assert.ok(Array.isArray(sc.elements) && sc.elements.length > 1, "the form has rows");

    const lines = sc.tree_text.split("\n");
    assert.ok(lines[0].includes(sc.snapshot_id), `the first line names the snapshot: ${JSON.stringify(lines[0])}`);
    assert.match(lines[0], new RegExp(`\\brows\\W*${sc.elements.length}\\b`), "the first line counts the rows");
    const rowLines = lines.slice(1).filter((l) => l.trim() !== "");
    assert.equal(rowLines.length, sc.elements.length, "one tree_text line per row");
    sc.elements.forEach((e, i) => {
      assert.equal(e.element_token, `${sc.snapshot_id}:${e.element_index}`);
      assert.ok(rowLines[i].trimStart().startsWith(`[${e.element_index}] `), `line ${i + 1} is row [${e.element_index}]: ${rowLines[i]}`);
    });
    assert.ok(findElement(sc, "push_button", "Save"), "the Save push button is read");
  });

  it("reads a skeleton sharing the full read's row numbers", async () => {
    const sc = assertSuccess(await call("get_window_state", { app: "Form Demo", skeleton: true }));
    assert.equal(sc.skeleton, true);
    assert.ok(sc.elements.length >= 1);
    for (const row of sc.elements) {
      assert.equal(typeof row.descendant_count, "number", "skeleton rows count descendants");
      assert.notEqual(row.role, "push_button", "skeleton rows are containers and landmarks only");
      assert.equal(row.element_token, `${sc.snapshot_id}:${row.element_index}`);
    }
    assert.equal(sc.elements[0].element_index, fullRead.elements[0].element_index, "the window row keeps its number");
  });

  it('treats a wrong-typed skeleton ("true") as absent: a normal full read', async () => {
    const sc = assertSuccess(await call("get_window_state", { app: "Form Demo", skeleton: "true" }));
    assert.notEqual(sc.skeleton, true);
    const save = findElement(sc, "push_button", "Save");
    assert.ok(save, "a full read lists the Save push button");
    assert.equal(save.element_index, findElement(fullRead, "push_button", "Save").element_index, "row numbers are stable");
  });

  it("clicks Save headless through its accessibility action", async () => {
    const save = findElement(fullRead, "push_button", "Save");
    assert.ok(save, "the full read found Save");
    const sc = assertSuccess(await call("click", { element_token: save.element_token }));
    assert.ok(["confirmed", "changed", "no_change"].includes(sc.effect), `effect is one of the contract's: ${sc.effect}`);
    assert.equal(sc.verified, sc.effect === "confirmed");
    assert.equal(sc.path, "atspi_action");
    assert.equal(sc.took_cursor, false, "a headless click never moves the pointer");
    assert.equal(typeof sc.snapshot_id, "string");
  });

  it("finds the Save button alone with find_elements; its token clicks", async () => {
    const res = await call("find_elements", { app: "Form Demo", role: "button", label: "save" });
    const sc = assertSuccess(res);
    assert.equal(sc.elements.length, 1, `one match: ${JSON.stringify(sc.elements)}`);
    const save = sc.elements[0];
    assert.equal(save.role, "push_button");
    assert.equal(save.label, "Save");
    assert.equal(save.element_token, `${sc.snapshot_id}:${save.element_index}`);
    assert.equal(save.element_index, findElement(fullRead, "push_button", "Save").element_index, "the same row number as a read");
    assert.ok(textOf(res).includes(`[${save.element_index}] button "Save"`), `the text names the row: ${textOf(res)}`);
    assertSuccess(await call("click", { element_token: save.element_token }));
  });

  it("waits with wait_for until the status label says saved", async () => {
    const sc = assertSuccess(
      await call("wait_for", { app: "Form Demo", condition: { kind: "text", role: "label", text: "saved (" }, timeout_ms: 10_000 }),
    );
    assert.equal(sc.met, true, `met: ${JSON.stringify(sc)}`);
    assert.match(sc.element.label, /^Saved \(\d+\)$/);
    assert.equal(sc.element.element_token, `${sc.snapshot_id}:${sc.element.element_index}`);
    const miss = assertSuccess(await call("wait_for", { app: "Form Demo", condition: { kind: "title", text: "no such title" }, timeout_ms: 50 }));
    assert.equal(miss.met, false, "a timeout is met:false, not an error");
  });

  it("refuses press_key in headless with requires_takeover", async () => {
    assertFailure(await call("press_key", { app: "Form Demo", key: "Return" }), "requires_takeover", "never");
  });

  it("ends the session; the session tools then refuse again", async () => {
    const sc = assertSuccess(await call("end_session"));
    assert.equal(sc.ended, true);
    assertFailure(await call("get_session_state"), "no_session", "after_refresh");
  });

  it("kept stdout to protocol only (no transport errors)", async () => {
    await client.ping({ timeout: STEP_TIMEOUT_MS }); // one more round trip flushes anything the driver wrote
    assert.deepEqual(driver.transportErrors.map(String), []);
  });
});
