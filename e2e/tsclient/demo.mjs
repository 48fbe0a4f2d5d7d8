// `make demo`: a scripted MCP session on real apps, the way a model would
// drive them, printed step by step with timings.
//
// It starts `nish-driver sandbox` with real apps (the synthetic GTK 3 form
// of native/atspi/testdata/synthetic.py, mousepad, and Chromium on the web
// fixture page; gtk3-widget-factory too unless --fast) on a private X
// display nobody sees, starts the simulated person (ci/demoperson) who
// answers each consent dialog with real pointer clicks, then drives
// `nish-driver mcp` through the TypeScript SDK's Client and
// StdioClientTransport: list the windows, start a session, read a skeleton
// and drill down, fill the form, type a paragraph into mousepad and read it
// back, fill in and submit the web form (demo-browser.mjs: headless acts,
// and a takeover the person allows for the typing), and save screenshots
// before and after as PNG files.
// Any unexpected outcome makes the exit status non-zero; the sandbox is
// stopped in every case.
//
// Usage: node demo.mjs [--fast] [--out DIR]
//   NISH_DRIVER_BIN       the driver (default bin/nish-driver)
//   NISH_DEMO_PERSON_BIN  the simulated person (default bin/demoperson)

import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { chromiumApp, fillTheWebForm } from "./demo-browser.mjs";
import { startPerson, startSandbox } from "./demo-desktop.mjs";
import { act, find, hasState, saveScreenshot, treeLines } from "./demo-reads.mjs";
import { DemoFailure, Session, detail, firstLines, msSince } from "./demo-steps.mjs";
import { driverBin } from "./driver.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "..", "..");
const personBin = resolve(process.env.NISH_DEMO_PERSON_BIN ?? join(repoRoot, "bin", "demoperson"));

/** The command line: --fast leaves out gtk3-widget-factory. */
function parseArgs(argv) {
  const opts = { fast: false, out: join(repoRoot, "demo-out") };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--fast") opts.fast = true;
    else if (argv[i] === "--out" && i + 1 < argv.length) opts.out = resolve(argv[++i]);
    else throw new DemoFailure(`unknown argument ${argv[i]} (usage: node demo.mjs [--fast] [--out DIR])`);
  }
  return opts;
}

// The form: the synthetic window with three rows (run from the repository
// root, so the path has no spaces whatever the clone's folder is called; by
// the system's Python, which has GTK's bindings).
const FORM = { command: "/usr/bin/python3 native/atspi/testdata/synthetic.py 3", app: "synthetic.py", window: "Synthetic 3 rows" };
const EDITOR = { command: "mousepad", app: "mousepad" };
const FACTORY = { command: "gtk3-widget-factory", app: "gtk3-widget-factory" };

// type_text adds at the end of a field nobody has clicked into, where a
// person would type: the entry reads "value 1, typed" afterwards.
const TYPED = ", typed";
// Three lines, so the screenshot after shows all of it.
const PARAGRAPH = [
  "Typed by nish-driver through the accessibility bus:",
  "no pointer moved, no key was pressed, the window was never raised,",
  "and the person's own screen was not touched.",
].join("\n");

async function fillTheForm(s, outDir) {
  console.log("\n== the form: read it, fill it in, read it again ==");
  const read = (extra = {}) => s.call("get_window_state", { app: FORM.window, ...extra });
  const target = { refresh: () => read() };
  target.read = await read({ include_screenshot: true });
  saveScreenshot(target.read, outDir, "form-before.png");

  const entry = (r) => find(r, 'the entry holding "value 1"', (e) => e.role === "text" && e.value === "value 1");
  const box = (r) => find(r, 'check box "Check 1"', (e) => e.role === "check_box" && e.label === "Check 1");
  const combo = (r) => find(r, "a combo box", (e) => e.role === "combo_box");
  const button = (r) => find(r, 'push button "Click me"', (e) => e.role === "push_button" && e.label === "Click me");
  detail("the rows the script acts on, as tree_text shows them:");
  treeLines(target.read, [entry, box, combo, button].map((pick) => pick(target.read).element_index));

  await act(s, "type_text", target, { text: TYPED }, entry);
  await act(s, "click", target, {}, box);
  // A combo is picked as a person would: open it (its menu's items show),
  // read again, click the item.
  await act(s, "click", target, {}, combo);
  target.read = await read();
  const two = (r) => find(r, 'menu item "two"', (e) => e.role === "menu_item" && e.label === "two");
  await act(s, "click", target, {}, two);
  await act(s, "click", target, {}, button);

  const after = await read({ include_screenshot: true });
  saveScreenshot(after, outDir, "form-after.png");
  const rows = after.structuredContent.elements;
  const checks = [
    ["the entry holds the typed text", rows.some((e) => e.role === "text" && e.value === `value 1${TYPED}`)],
    ["the check box is checked", hasState(box(after), "checked")],
    ['the combo shows "two"', rows.some((e) => e.role === "combo_box" && e.label === "two")],
    ['the status label says "clicked 1"', rows.some((e) => e.role === "label" && e.label === "clicked 1")],
  ];
  for (const [what, ok] of checks) {
    if (!ok) throw new DemoFailure(`after filling the form, ${what}: not so`);
  }
  detail("the read after shows every change: entry text, check box, combo, status label");
}

async function typeIntoTheEditor(s, outDir) {
  console.log("\n== mousepad: find the editor through a skeleton, type, read back ==");
  // A skeleton lists only containers, so a few rows stand for the whole
  // window; the screenshot rides along.
  const skeleton = (shot) => s.call("get_window_state", { app: EDITOR.app, skeleton: true, include_screenshot: shot });
  let sk = await skeleton(true);
  firstLines(sk.structuredContent.tree_text, 6);
  saveScreenshot(sk, outDir, "mousepad-before.png");
  // The editor sits in the innermost scrolled container: drill down there.
  const scroller = (r) => {
    const rows = r.structuredContent.elements.filter((e) => e.role.includes("scroll"));
    if (rows.length === 0) throw new DemoFailure("the skeleton has no scrolled container");
    return rows.at(-1);
  };
  const region = () => s.call("get_window_state", { root: scroller(sk).element_token });
  const target = {
    refresh: async () => {
      sk = await skeleton(false);
      return region();
    },
  };
  target.read = await region();
  firstLines(target.read.structuredContent.tree_text, 4);

  const editor = (r) => find(r, "an editable text view", (e) => e.role === "text" && hasState(e, "editable"));
  const typed = await act(s, "type_text", target, { text: PARAGRAPH }, editor);
  // Typing changed the window's structure (mousepad swaps a menu item when
  // a document becomes modified), so the drill-down's tokens are stale. Row
  // numbers are stable, and the act's result names the snapshot it settled
  // on: its snapshot_id and the editor's row make a fresh token.
  const fresh = `${typed.structuredContent.snapshot_id}:${editor(target.read).element_index}`;
  const back = await s.call("get_window_state", { root: fresh });
  const text = back.structuredContent.text ?? "";
  detail(`text read back (${text.length} characters): ${JSON.stringify(text.slice(0, 70))}…`);
  if (text !== PARAGRAPH) throw new DemoFailure("the text read back is not the paragraph typed");
  detail("it is exactly the paragraph typed");
  saveScreenshot(await skeleton(true), outDir, "mousepad-after.png");
}

async function glanceAtTheFactory(s) {
  console.log("\n== gtk3-widget-factory: a dense window, seen as a skeleton ==");
  const skeleton = await s.call("get_window_state", { app: FACTORY.app, skeleton: true });
  firstLines(skeleton.structuredContent.tree_text, 6);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  for (const [what, bin] of [["driver", driverBin], ["simulated person", personBin]]) {
    if (!existsSync(bin)) throw new DemoFailure(`the ${what} is not built at ${bin}: run make demo`);
  }
  mkdirSync(opts.out, { recursive: true });
  const t0 = performance.now();
  await runDemo(opts, chromiumApp(repoRoot), t0);
}

async function runDemo(opts, browser, t0) {
  const apps = opts.fast ? [FORM, EDITOR, browser] : [FORM, EDITOR, FACTORY, browser];

  console.log(`nish-driver demo${opts.fast ? " (fast)" : ""}: ${relative(repoRoot, driverBin)} and ${relative(repoRoot, personBin)}`);
  let t = performance.now();
  const sandbox = await startSandbox({
    driverBin,
    apps: apps.filter((a) => a.command).map((a) => a.command),
    browsers: apps.filter((a) => a.browser).map((a) => a.browser),
    cwd: repoRoot,
  });
  console.log(`sandbox on display ${sandbox.env.DISPLAY} in ${msSince(t)}: ${sandbox.apps.map((a) => `${a.name} (pid ${a.pid})`).join(", ")}`);

  let client;
  let driverStderr = "";
  try {
    if (sandbox.apps.length < apps.length) throw new DemoFailure(`only ${sandbox.apps.length} of ${apps.length} apps joined the accessibility bus`);
    t = performance.now();
    const person = await startPerson({ personBin, sandbox });
    console.log(`simulated person watching the display in ${msSince(t)}`);

    t = performance.now();
    const transport = new StdioClientTransport({ command: driverBin, args: ["mcp"], env: sandbox.env, stderr: "pipe" });
    transport.stderr?.on("data", (chunk) => {
      driverStderr += chunk.toString();
    });
    client = new Client({ name: "nish-demo", version: "0.0.0" }, { capabilities: {} });
    await client.connect(transport);
    const info = client.getServerVersion();
    const tools = await client.listTools();
    console.log(`connected to ${info?.name} ${info?.version} over stdio, ${tools.tools.length} tools, in ${msSince(t)}`);

    const s = new Session(client);
    console.log("\n== before a session, and the consent ==");
    await s.call("list_windows");
    const started = await s.call("start_session", {
      apps: apps.map((a) => a.app),
      purpose: "make demo: fill in forms and type a note",
    });
    detail(`the person: ${await person.done}`);
    if (started.structuredContent.apps.length !== apps.length) throw new DemoFailure("the session does not hold every app");

    await fillTheForm(s, opts.out);
    await typeIntoTheEditor(s, opts.out);
    if (!opts.fast) await glanceAtTheFactory(s);
    await fillTheWebForm(s, {
      browser,
      outDir: opts.out,
      askPerson: (clicks) => startPerson({ personBin, sandbox, clicks }),
    });

    console.log("\n== done ==");
    await s.call("end_session");
  } catch (err) {
    if (driverStderr) console.error(`\ndriver stderr:\n${driverStderr}`);
    throw err;
  } finally {
    await client?.close().catch(() => {});
    t = performance.now();
    const status = await sandbox.stop();
    console.log(`\nsandbox stopped (exit ${status}) in ${msSince(t)}`);
    if (status !== 0) process.exitCode = 1;
  }
  console.log(`demo finished in ${msSince(t0)}; screenshots in ${relative(repoRoot, opts.out) || "."}/`);
}

// Ctrl-C: the exit handlers stop the sandbox and the person; the driver
// ends when its stdin closes.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    console.error(`\ndemo interrupted (${signal}); stopping the sandbox`);
    process.exit(130);
  });
}

main().catch((err) => {
  console.error(`\ndemo FAILED: ${err instanceof DemoFailure ? err.message : (err?.stack ?? err)}`);
  process.exitCode = 1;
});
