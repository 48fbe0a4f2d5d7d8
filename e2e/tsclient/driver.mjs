// Starts the built nish-driver binary as an MCP server over stdio with the
// TypeScript SDK's own Client and StdioClientTransport, the way a host app
// would, and keeps the raw JSON-RPC traffic so tests can see fields the SDK's
// parsed results might drop.

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const here = dirname(fileURLToPath(import.meta.url));

/** The binary under test: $NISH_DRIVER_BIN, else the Makefile's bin/nish-driver. */
export const driverBin = resolve(process.env.NISH_DRIVER_BIN ?? join(here, "..", "..", "bin", "nish-driver"));

/**
 * Wraps a transport and records every message in both directions, so a test
 * can read a result exactly as the server sent it.
 */
class RecordingTransport {
  constructor(inner) {
    this.inner = inner;
    this.sent = [];
    this.received = [];
  }

  async start() {
    this.inner.onmessage = (message, extra) => {
      this.received.push(message);
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (err) => this.onerror?.(err);
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  async send(message, options) {
    this.sent.push(message);
    await this.inner.send(message, options);
  }

  async close() {
    await this.inner.close();
  }

  setProtocolVersion(version) {
    this.inner.setProtocolVersion?.(version);
  }

  get sessionId() {
    return this.inner.sessionId;
  }

  /** The raw result of the last request sent with this method. */
  rawResult(method) {
    const req = [...this.sent].reverse().find((m) => m.method === method && m.id !== undefined);
    if (!req) throw new Error(`no ${method} request was sent`);
    const res = this.received.find((m) => m.id === req.id && ("result" in m || "error" in m));
    if (!res) throw new Error(`no response to ${method} (id ${req.id})`);
    if (res.error) throw new Error(`${method} failed: ${JSON.stringify(res.error)}`);
    return res.result;
  }
}

/**
 * Spawns `nish-driver mcp --backend mock` and connects an SDK client to it.
 * The driver gets a private state directory (its audit log goes there) and no
 * DISPLAY: the mock backend needs no desktop.
 *
 * Returns { client, transport, stderr(), transportErrors, close() }.
 */
export async function startDriver({ clientName, args = ["mcp", "--backend", "mock"] } = {}) {
  if (!existsSync(driverBin)) {
    throw new Error(`nish-driver binary not found at ${driverBin}: run make build, or set NISH_DRIVER_BIN`);
  }
  const stateDir = mkdtempSync(join(tmpdir(), "nish-e2e-"));
  const inner = new StdioClientTransport({
    command: driverBin,
    args,
    // Merged over the SDK's small default environment (HOME, PATH, ...),
    // which carries no DISPLAY.
    env: { XDG_STATE_HOME: stateDir, XDG_RUNTIME_DIR: stateDir, XDG_CACHE_HOME: stateDir },
    stderr: "pipe",
  });
  let stderrText = "";
  inner.stderr?.on("data", (chunk) => {
    stderrText += chunk.toString();
  });
  const transport = new RecordingTransport(inner);
  const client = new Client({ name: clientName, version: "0.0.0" }, { capabilities: {} });
  const transportErrors = [];
  client.onerror = (err) => transportErrors.push(err);
  await client.connect(transport);
  return {
    client,
    transport,
    transportErrors,
    stderr: () => stderrText,
    async close() {
      await client.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** The text of a tool result's first text block ("" when there is none). */
export function textOf(result) {
  const block = (result.content ?? []).find((c) => c.type === "text");
  return block ? block.text : "";
}
