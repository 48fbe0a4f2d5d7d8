// The demo's browser step: the form of a local web page
// (native/atspi/testdata/web/form.html) filled in and submitted in
// Chromium, the way a model would do it through the driver. Everything
// that works headless is done headless (a button, a check box, an option
// of a closed select, a range input); typing is where this browser needs a
// visible takeover: Chromium's fields take no text through accessibility,
// and keys sent to its window alone (the window_keys path) are refused
// while its window holds the keyboard focus, as it does here (it took the
// focus when it started, and nothing headless moves it), since the
// person's keys would mix with them. So the driver's refusal says to ask
// for a takeover, the person allows it in the consent dialog, the name is
// typed with real keys, and the session goes back to headless for the
// submit.

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

import { act, find, hasState, saveScreenshot, treeLines } from "./demo-reads.mjs";
import { DemoFailure, detail, firstLines, msSince } from "./demo-steps.mjs";

/** The page's title, which starts the browser window's title. */
const PAGE_TITLE = "Form Fixture";
/** What is typed into the page's Name field, and read back after Submit. */
const NAME = "Ada Lovelace";
/** The range input's new value. */
const VOLUME = 65;
/** How long the page may take to show in the browser's tree. */
const PAGE_READY_MS = 45_000;

/**
 * The browser app of the demo: Chromium showing the fixture page, started
 * by the sandbox (`--browser chromium=URL`) as the driver's tests start it:
 * a new profile in the sandbox's folder (gone with the sandbox), a
 * 1280x800 window at the top left, accessibility on. The page goes as a
 * file URL.
 */
export function chromiumApp(repoRoot) {
  const page = resolve(repoRoot, "native", "atspi", "testdata", "web", "form.html");
  if (!existsSync(page)) throw new DemoFailure(`the fixture page is missing: ${page}`);
  return {
    browser: `chromium=${pathToFileURL(page).href}`,
    app: "chromium",
    window: PAGE_TITLE,
  };
}

/**
 * Waits, without printing each try, until the page's last element is in
 * the browser's tree: the window shows before the page's tree is built.
 */
async function waitForPage(client) {
  const t0 = performance.now();
  let tries = 0;
  let last = "";
  while (performance.now() - t0 < PAGE_READY_MS) {
    tries += 1;
    const r = await client.callTool({ name: "get_window_state", arguments: { app: PAGE_TITLE, max_elements: 5000 } });
    if (!r.isError && r.structuredContent.elements.some((e) => e.role === "push_button" && e.label === "Far button")) {
      console.log(`\n(the page's tree was complete after ${msSince(t0)}, ${tries} quiet read(s))`);
      return;
    }
    last = r.isError ? r.structuredContent?.error?.code : `${r.structuredContent.element_count} rows`;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new DemoFailure(`the page never showed in Chromium's tree within ${PAGE_READY_MS / 1000} s (last read: ${last})`);
}

/**
 * The browser step. askPerson(clicks) starts the simulated person, who
 * clicks those controls of the next consent dialog; it resolves with an
 * object whose done resolves once the person has answered.
 */
export async function fillTheWebForm(s, { browser, outDir, askPerson }) {
  console.log("\n== Chromium: fill in and submit a web form (headless, one takeover to type) ==");
  await waitForPage(s.client);

  // A skeleton first: a few rows stand for the browser's whole window; the
  // page is the document_web row.
  const skeleton = (shot) => s.call("get_window_state", { app: browser.window, skeleton: true, include_screenshot: shot });
  let sk = await skeleton(true);
  firstLines(sk.structuredContent.tree_text, 8);
  saveScreenshot(sk, outDir, "browser-before.png");
  if ((sk.structuredContent.screenshot?.blacked_out ?? 0) < 1) throw new DemoFailure("the page's password field was not blacked out in the screenshot");
  const doc = (r) => find(r, "a document_web row", (e) => e.role === "document_web");
  const windowId = sk.structuredContent.window.window_id;

  // Then the page alone: 5,000 rows is enough for all of it, the 300-row
  // table and the button far below the fold included. A token goes stale
  // once the page's structure changes (a status line replaced, an option
  // picked); row numbers stay, and every act's result names the snapshot
  // it settled on, so that snapshot and the page's row make a fresh token.
  // Should even that be stale, the skeleton is read again.
  const docIndex = doc(sk).element_index;
  const page = async () => {
    const root = `${s.lastSnapshot}:${docIndex}`;
    const r = await s.call("get_window_state", { root, max_elements: 5000 }, { tolerate: "stale_element_token" });
    if (!r.isError) return r;
    sk = await skeleton(false);
    return s.call("get_window_state", { root: doc(sk).element_token, max_elements: 5000 });
  };
  const target = { refresh: page };
  target.read = await page();

  const row = (role, label) => (r) => find(r, `${role} "${label}"`, (e) => e.role === role && e.label === label);
  const name = row("entry", "Name");
  const subscribe = row("check_box", "Subscribe");
  const color = row("combo_box", "Color");
  const green = row("menu_item", "Green");
  const volume = row("slider", "Volume");
  const save = row("push_button", "Save");
  const submit = row("push_button", "Submit");
  const far = row("push_button", "Far button");
  const status = (r) => find(r, "the status line", (e) => /^(ready|clicked: |submitted: )/.test(e.label ?? e.value ?? ""));
  detail("the rows the script acts on, as tree_text shows them:");
  treeLines(target.read, [name, subscribe, color, green, volume, save, submit, status, far].map((pick) => pick(target.read).element_index));

  // Headless: accessibility actions and values only.
  const diffHas = (res, text) => JSON.stringify(res.structuredContent.diff ?? {}).includes(text);
  const expect = (ok, what) => {
    if (!ok) throw new DemoFailure(`in Chromium, ${what}: not so`);
  };
  let res = await act(s, "click", target, {}, save);
  expect(diffHas(res, "clicked: Save"), 'the click on Save shows "clicked: Save" in the diff');
  res = await act(s, "click", target, {}, subscribe);
  expect(res.structuredContent.effect === "confirmed" && diffHas(res, "checked"), "ticking Subscribe is confirmed by its state");
  // A closed <select>: its options are on the bus as menu items, and a
  // click on one picks it.
  res = await act(s, "click", target, {}, green);
  expect(diffHas(res, "Green"), 'picking "Green" shows in the diff');
  res = await act(s, "set_value", target, { value: VOLUME }, volume);
  expect(res.structuredContent.readback === "match", `the Volume slider reads back ${VOLUME}`);

  // Typing: Chromium's fields take no text through accessibility, and its
  // window holds the keyboard focus, so keys sent to it alone could mix
  // with the person's: the driver says so before anything is sent, with
  // what to ask for instead.
  res = await act(s, "type_text", target, { text: NAME }, name, { tolerate: "not_actionable" });
  const refused = res.structuredContent?.error;
  expect(res.isError && refused?.code === "not_actionable" && refused.escalation?.recommend === "takeover", "type_text headless into the Name field is refused with a takeover recommended");
  detail(`escalation: recommend ${refused.escalation.recommend} (${refused.escalation.reason})`);

  // The takeover: the consent dialog again, now with the line that allows
  // visible input; the person ticks it and allows.
  const person = await askPerson(["takeover", "allow"]);
  const tk = await s.call("start_session", { apps: [browser.app], input: "takeover", purpose: "make demo: type a name into a web form" });
  detail(`the person: ${await person.done}`);
  expect(tk.structuredContent.input === "takeover" && tk.structuredContent.takeover?.on === true, "the session is in a takeover");
  await s.call("bring_to_front", { window_id: windowId });
  await act(s, "click", target, { delivery_mode: "foreground" }, name);
  res = await s.call("type_text", { window_id: windowId, text: NAME, delivery_mode: "foreground" });
  expect(res.structuredContent.path === "xtest" && diffHas(res, NAME), `typing puts "${NAME}" into the Name field`);

  // Hand back: headless again; the driver takes its indicator down.
  const hb = await s.call("start_session", { apps: [browser.app], input: "headless" });
  expect(hb.structuredContent.input === "headless" && hb.structuredContent.takeover?.on !== true, "the takeover ended");

  res = await act(s, "click", target, {}, submit);
  expect(diffHas(res, `submitted: ${NAME}`), `the submit shows "submitted: ${NAME}" in the diff`);
  target.read = await page();
  const said = status(target.read);
  detail(`the status line reads back: ${JSON.stringify(said.label ?? said.value)}`);
  expect((said.label ?? said.value) === `submitted: ${NAME}`, `the status line says "submitted: ${NAME}"`);
  expect(hasState(subscribe(target.read), "checked"), "Subscribe is still ticked");
  expect(hasState(green(target.read), "selected"), '"Green" is the selected option');
  expect(Number(volume(target.read).value) === VOLUME, `the Volume slider holds ${VOLUME}`);

  const after = await skeleton(true);
  saveScreenshot(after, outDir, "browser-after.png");

  // Last, the button far below the fold: scrolled into view and clicked,
  // headless.
  res = await act(s, "click", target, {}, far);
  expect(res.structuredContent.scrolled_into_view === true && diffHas(res, "far clicked"), "the far button was scrolled into view and clicked");
  detail("the page was submitted with the typed name; every other field was set headless");
}
