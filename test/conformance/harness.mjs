// Shared by the conformance tests: starts examples/gin-app on a free
// loopback port, drives it with the official client and checks every raw
// event against the official schemas.

import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { EventSchemas, AgentCapabilitiesSchema } from "@ag-ui/core/schemas";
import { decode } from "@ag-ui/proto";
import { tap } from "rxjs";

export const PROTO = "application/vnd.ag-ui.event+proto";
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

// missing ends test t because something it needs is absent: it fails t
// when CI is "true" and skips it otherwise, as the Go tests' sharedtest
// helper does, so a check CI is meant to run cannot pass there unrun.
export function missing(t, why) {
  if (process.env.CI === "true") assert.fail(`${why} (CI=true: a missing requirement is a failure, not a skip)`);
  t.skip(why);
}

// startApp builds the example app (unless AGUI_APP_BIN names a binary
// built already, as conformance_test.go does), runs it on 127.0.0.1:0 and
// resolves once its "listening" log line names the bound address. The
// returned app keeps every log line, for checks of what the server saw.
// args are passed to the app after -addr.
export async function startApp(args = []) {
  let bin = process.env.AGUI_APP_BIN;
  let dir;
  if (!bin) {
    dir = mkdtempSync(join(tmpdir(), "agui-conformance-"));
    bin = join(dir, "gin-app");
    execFileSync("go", ["build", "-o", bin, "./examples/gin-app"], { cwd: repoRoot, stdio: "inherit" });
  }
  const child = spawn(bin, ["-addr", "127.0.0.1:0", ...args], { stdio: ["ignore", "ignore", "pipe"] });
  const lines = [];
  const waiters = new Set();
  let pending = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    pending += chunk;
    let i;
    while ((i = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      lines.push(line);
      for (const w of waiters) w(line);
    }
  });
  const exited = new Promise((res) => child.on("exit", (code, signal) => res({ code, signal })));

  const waitForLog = (pred, ms = 5000) =>
    new Promise((res, rej) => {
      const hit = lines.find(pred);
      if (hit !== undefined) return res(hit);
      const timer = setTimeout(() => {
        waiters.delete(check);
        rej(new Error(`no log line matched within ${ms} ms; log:\n${lines.join("\n")}`));
      }, ms);
      const check = (line) => {
        if (pred(line)) {
          clearTimeout(timer);
          waiters.delete(check);
          res(line);
        }
      };
      waiters.add(check);
    });

  const listening = await Promise.race([
    waitForLog((l) => l.includes("msg=listening"), 30000),
    exited.then((e) => {
      throw new Error(`gin-app exited early (${JSON.stringify(e)}):\n${lines.join("\n")}`);
    }),
  ]);
  const url = /url=(http:\/\/\S+)/.exec(listening)[1];
  return {
    url,
    pid: child.pid,
    lines,
    waitForLog,
    // stop ends the app with SIGTERM (its graceful shutdown) and fails
    // when the app, if built with -race, reported a data race.
    async stop() {
      child.kill("SIGTERM");
      const e = await exited;
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (lines.some((l) => l.includes("DATA RACE"))) {
        throw new Error(`the app reported a data race:\n${lines.join("\n")}`);
      }
      return e;
    },
  };
}

// TapAgent is the official HttpAgent with a tap on its transport: raw holds
// every event as decoded from the wire, before the client's compatibility
// boundary, enforcement, chunk expansion, verification and reducer run.
export class TapAgent extends HttpAgent {
  constructor(opts) {
    super(opts);
    this.raw = [];
    this.accept = opts.accept;
  }
  requestInit(input) {
    const init = super.requestInit(input);
    if (this.accept) init.headers = { ...init.headers, Accept: this.accept };
    return init;
  }
  run(input) {
    this.lastInput = input;
    return super.run(input).pipe(tap((ev) => this.raw.push(ev)));
  }
}

// run drives one runAgent call and collects what a test asserts on: the
// client's warnings and errors (console output of the pipeline), the
// RUN_ERROR and RUN_FINISHED hooks, and whether runAgent rejected.
export async function run(agent, params = {}, subscriber = {}) {
  const warnings = [];
  const errors = [];
  const ow = console.warn;
  const oe = console.error;
  console.warn = (...a) => warnings.push(a.map(String).join(" "));
  console.error = (...a) => errors.push(a.map(String).join(" "));
  const out = { warnings, errors, runErrors: [], finished: [] };
  const from = agent.raw ? agent.raw.length : 0;
  try {
    out.result = await agent.runAgent(params, {
      onRunErrorEvent: ({ event }) => {
        out.runErrors.push(event);
      },
      onRunFinishedEvent: ({ event, outcome }) => {
        out.finished.push({ event, outcome });
      },
      ...subscriber,
    });
  } catch (e) {
    out.error = e;
  } finally {
    console.warn = ow;
    console.error = oe;
  }
  if (agent.raw) out.raw = agent.raw.slice(from);
  return out;
}

// assertSchemaValid checks every event against @ag-ui/core's EventSchemas.
export function assertSchemaValid(events) {
  assert.ok(events.length > 0, "no events");
  for (const [i, ev] of events.entries()) {
    const r = EventSchemas.safeParse(ev);
    assert.ok(r.success, `event #${i} ${ev.type} fails the official schema: ${r.error?.message}\n${JSON.stringify(ev)}`);
  }
}

// assertClean asserts that the client accepted a run without complaint: no
// rejection, and no warning from its compatibility boundary, enforcement
// (stripped keys), reducer (failed patches) or version check.
export function assertClean(out) {
  if (out.error) throw out.error;
  assert.deepEqual(out.warnings, [], "the client warned");
  assert.deepEqual(out.errors, [], "the client logged errors");
}

export function types(events) {
  return events.map((e) => e.type);
}

// newMessages returns the agent's messages without the ones the test sent.
export function newMessages(agent, sent) {
  const ids = new Set(sent.map((m) => m.id));
  return agent.messages.filter((m) => !ids.has(m.id));
}

export function user(text, id = "u-" + Math.random().toString(36).slice(2)) {
  return { id, role: "user", content: text };
}

// capabilities fetches GET <route>/capabilities and checks it against the
// official schema.
export async function capabilities(base, route) {
  const res = await fetch(`${base}/agents/${route}/capabilities`);
  return { status: res.status, body: res.status === 200 ? await res.json() : undefined };
}
export { AgentCapabilitiesSchema };

// fetchProto POSTs input asking for protobuf and decodes the frames (a
// 4-byte big-endian length, then an ag_ui.Event) with @ag-ui/proto.
export async function fetchProto(url, input) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: PROTO },
    body: JSON.stringify(input),
  });
  const buf = Buffer.from(await res.arrayBuffer());
  const events = [];
  let off = 0;
  while (off < buf.length) {
    assert.ok(buf.length - off >= 4, `${buf.length - off} trailing bytes`);
    const n = buf.readUInt32BE(off);
    assert.ok(off + 4 + n <= buf.length, `frame ${events.length} is cut short`);
    events.push(decode(new Uint8Array(buf.buffer, buf.byteOffset + off + 4, n)));
    off += 4 + n;
  }
  return { status: res.status, contentType: res.headers.get("content-type"), headers: res.headers, events };
}

// fetchSSE POSTs input asking for SSE and parses the frames the way the
// official client does (split on a blank line, data: lines only).
export async function fetchSSE(url, input) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(input),
  });
  const text = await res.text();
  const events = [];
  for (const frame of text.split("\n\n")) {
    const data = frame
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""))
      .join("\n");
    if (data) events.push(JSON.parse(data));
  }
  return { status: res.status, contentType: res.headers.get("content-type"), headers: res.headers, events };
}

// normalise replaces generated ids and timestamps with stable names, in
// order of first appearance, so two runs of one agent compare equal.
export function normalise(events) {
  const names = new Map();
  const idKeys = new Set([
    "threadId",
    "messageId",
    "toolCallId",
    "parentMessageId",
    "subagentRunId",
    "parentSubagentRunId",
    "entityId",
  ]);
  const walk = (v, key) => {
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === "object") {
      const o = {};
      for (const k of Object.keys(v).sort()) {
        if (k === "timestamp") continue;
        o[k] = walk(v[k], k);
      }
      return o;
    }
    if (typeof v === "string" && (idKeys.has(key) || key === "id")) {
      if (!names.has(v)) names.set(v, `id${names.size}`);
      return names.get(v);
    }
    return v;
  };
  return events.map((e) => walk(e));
}
