// The demo's desktop: `nish-driver sandbox` running real apps on a private
// X display nobody sees, and the simulated person (ci/demoperson) who
// answers the consent dialog there with real pointer clicks. Both are
// separate processes; this module starts them, reads what they print, and
// stops them.

import { spawn } from "node:child_process";
import { once } from "node:events";

/** How long the sandbox may take to start its desktop and apps. */
const SANDBOX_READY_MS = 60_000;
/** How long the sandbox may take to stop everything it started. */
const SANDBOX_STOP_MS = 15_000;

/**
 * Collects a stream's lines and lets a caller wait for one that matches.
 */
class LineReader {
  constructor(stream) {
    this.lines = [];
    this.waiters = [];
    let partial = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk) => {
      partial += chunk;
      const parts = partial.split("\n");
      partial = parts.pop();
      for (const line of parts) this.push(line);
    });
    stream.on("end", () => {
      if (partial) this.push(partial);
      partial = "";
    });
  }

  push(line) {
    this.lines.push(line);
    for (const w of [...this.waiters]) {
      if (w.test(line)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  }

  /** Resolves with the first line (seen or to come) that test accepts. */
  waitFor(test) {
    const seen = this.lines.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  text() {
    return this.lines.join("\n");
  }
}

/** Rejects when the child exits first, with what it said on stderr. */
function exitBefore(child, what, stderr) {
  return once(child, "exit").then(([code, signal]) => {
    throw new Error(`${what} exited (${signal ?? `status ${code}`}) before it was ready:\n${stderr.text()}`);
  });
}

function timeout(ms, what) {
  let timer;
  const p = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms / 1000} s`)), ms);
  });
  p.clear = () => clearTimeout(timer);
  return p;
}

/**
 * Parses the sandbox's `export K="V"` lines (Go-quoted) into an object;
 * `unset K` lines name variables the desktop's programs must not have.
 */
export function parseExports(lines) {
  const env = {};
  const unset = [];
  for (const line of lines) {
    const m = /^export ([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) {
      let value = m[2];
      try {
        value = JSON.parse(value);
      } catch {
        // Go's %q quoting matches JSON for the plain paths and addresses the
        // sandbox prints; anything else is kept as printed.
      }
      env[m[1]] = value;
      continue;
    }
    const u = /^unset ([A-Za-z_][A-Za-z0-9_]*)$/.exec(line);
    if (u) unset.push(u[1]);
  }
  return { env, unset };
}

/**
 * Starts `nish-driver sandbox --browser B... -- APPS...` and waits until it
 * says ready. Each app is one command line, split on spaces by the
 * sandbox; each browser a KIND=URL the sandbox starts as the driver's
 * tests do; cwd is the folder they run in (relative paths in them start
 * there).
 *
 * Returns { env, apps: [{name, pid}], stop() }: env is what reaches the
 * desktop (to be merged over a child's environment), apps what the sandbox
 * saw join the accessibility bus, stop() ends the sandbox and everything in
 * it and resolves with its exit status.
 */
export async function startSandbox({ driverBin, apps, browsers = [], cwd }) {
  const args = ["sandbox", ...browsers.flatMap((b) => ["--browser", b]), "--", ...apps];
  const child = spawn(driverBin, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const stdout = new LineReader(child.stdout);
  const stderr = new LineReader(child.stderr);
  const exited = once(child, "exit");
  let stopping = null;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const limit = timeout(SANDBOX_STOP_MS, "the sandbox stopping");
        try {
          await Promise.race([exited, limit]);
        } catch (err) {
          child.kill("SIGKILL");
          throw err;
        } finally {
          limit.clear();
        }
      }
      return child.exitCode;
    })();
    return stopping;
  };
  // Whatever happens to this process, the desktop goes with it.
  const onExit = () => child.kill("SIGTERM");
  process.once("exit", onExit);
  exited.then(() => process.off("exit", onExit));

  const limit = timeout(SANDBOX_READY_MS, "the sandbox saying ready");
  try {
    await Promise.race([stderr.waitFor((l) => l.startsWith("sandbox: ready")), exitBefore(child, "the sandbox", stderr), limit]);
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  } finally {
    limit.clear();
  }
  // The environment went to stdout before the ready line went to stderr,
  // but the two pipes are read independently: wait for its last line
  // (the names are printed sorted; XDG_STATE_HOME comes last).
  const printed = timeout(10_000, "the sandbox's environment lines arriving");
  try {
    await Promise.race([stdout.waitFor((l) => l.startsWith("export XDG_STATE_HOME=")), printed]);
  } catch (err) {
    await stop().catch(() => {});
    throw new Error(`${err.message}:\n${stdout.text()}`);
  } finally {
    printed.clear();
  }
  const { env, unset } = parseExports(stdout.lines);
  if (!env.DISPLAY || !env.DBUS_SESSION_BUS_ADDRESS) {
    await stop();
    throw new Error(`the sandbox printed no DISPLAY or session bus:\n${stdout.text()}`);
  }
  const joined = [];
  for (const line of stderr.lines) {
    const m = /^sandbox: accessible app "(.*)" \(pid (\d+)\)$/.exec(line);
    if (m && !m[1].startsWith("xdg-desktop-portal")) joined.push({ name: m[1], pid: Number(m[2]) });
  }
  return { env, unset, apps: joined, stderr: () => stderr.text(), stop };
}

/**
 * The environment of a program that runs on the sandbox: this process's,
 * with the sandbox's variables in place and the ones it unsets removed.
 */
export function desktopEnv(sandbox, base = process.env) {
  const env = { ...base, ...sandbox.env };
  for (const k of [...sandbox.unset, "WAYLAND_DISPLAY", "AT_SPI_BUS_ADDRESS"]) delete env[k];
  return env;
}

/**
 * Starts the simulated person on the sandbox's display, clicking the given
 * consent-dialog controls once the dialog shows. Resolves once it watches
 * the display; done resolves with its last line and rejects when it fails.
 */
export async function startPerson({ personBin, sandbox, clicks = ["allow"], waitSeconds = 60 }) {
  const child = spawn(personBin, ["-click", clicks.join(","), "-timeout", `${waitSeconds}s`], {
    env: desktopEnv(sandbox),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout = new LineReader(child.stdout);
  const stderr = new LineReader(child.stderr);
  const exited = once(child, "exit");
  const onExit = () => child.kill("SIGTERM");
  process.once("exit", onExit);
  exited.then(() => process.off("exit", onExit));

  const limit = timeout(15_000, "the simulated person watching the display");
  try {
    await Promise.race([stdout.waitFor((l) => l === "demoperson: watching"), exitBefore(child, "the simulated person", stderr), limit]);
  } finally {
    limit.clear();
  }
  const done = exited.then(([code, signal]) => {
    if (code !== 0) throw new Error(`the simulated person failed (${signal ?? `status ${code}`}): ${stderr.text()}`);
    return stdout.lines.at(-1) ?? "";
  });
  done.catch(() => {}); // observed by whoever awaits it
  return { done, kill: () => child.kill("SIGTERM") };
}
