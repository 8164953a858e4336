// Starts examples/dojo pointed at aimock, and drives it with the official
// @ag-ui/client as the Dojo's pages do.

import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { tap } from "rxjs";

// startServer runs the server binary bin (examples/dojo or
// examples/gin-app) on a free loopback port with the model variables the
// Dojo's test runs set, and resolves once its "listening" line names its
// base URL.
export async function startServer(bin, modelURL) {
  const env = { ...process.env, OPENAI_BASE_URL: modelURL + "/v1", OPENAI_API_KEY: "sk-mock", OPENAI_CHAT_MODEL_ID: "gpt-4o" };
  const child = spawn(bin, ["-addr", "127.0.0.1:0"], { stdio: ["ignore", "ignore", "pipe"], env });
  const lines = [];
  child.stderr.setEncoding("utf8");
  const exited = new Promise((res) => child.on("exit", (code, signal) => res({ code, signal })));
  const url = await new Promise((res, rej) => {
    let pending = "";
    const timer = setTimeout(() => rej(new Error(`no listening line in 30 s:\n${lines.join("\n")}`)), 30000);
    child.stderr.on("data", (chunk) => {
      pending += chunk;
      let i;
      while ((i = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + 1);
        lines.push(line);
        const m = line.match(/msg=listening url=(\S+)(?: model=(\S+))?/);
        if (m) {
          clearTimeout(timer);
          res({ base: m[1], model: m[2] });
        }
      }
    });
    exited.then((e) => {
      clearTimeout(timer);
      rej(new Error(`the server exited early (${JSON.stringify(e)}):\n${lines.join("\n")}`));
    });
  });
  return {
    ...url,
    lines,
    async stop() {
      child.kill("SIGTERM");
      const e = await exited;
      assert.equal(e.code, 0, `the server's exit after SIGTERM:\n${lines.join("\n")}`);
    },
  };
}

// TapAgent is the official HttpAgent keeping every event as it came off
// the wire, before the client's verifier and reducer.
export class TapAgent extends HttpAgent {
  constructor(opts) {
    super(opts);
    this.raw = [];
  }
  run(input) {
    return super.run(input).pipe(tap((ev) => this.raw.push(ev)));
  }
}

// run is one runAgent call, as a page's chat sends it: it returns the
// run's raw events and asserts the client accepted them without a warning,
// every event fits the official schemas and the run ended with outcome.
export async function run(agent, params = {}, outcome = "success") {
  const warnings = [];
  const ow = console.warn;
  const oe = console.error;
  console.warn = (...a) => warnings.push(a.map(String).join(" "));
  console.error = (...a) => warnings.push(a.map(String).join(" "));
  const from = agent.raw.length;
  const finished = [];
  try {
    await agent.runAgent(params, { onRunFinishedEvent: ({ outcome }) => finished.push(outcome) });
  } finally {
    console.warn = ow;
    console.error = oe;
  }
  assert.deepEqual(warnings, [], "the client warned");
  const raw = agent.raw.slice(from);
  for (const [i, ev] of raw.entries()) {
    const r = EventSchemas.safeParse(ev);
    assert.ok(r.success, `event #${i} ${ev.type} fails the official schema: ${r.error?.message}`);
  }
  assert.deepEqual(finished, [outcome], `one RUN_FINISHED (${outcome}); events: ${raw.map((e) => e.type).join(" ")}`);
  return raw;
}

export const types = (events) => events.map((e) => e.type);

let n = 0;
export const user = (text) => ({ id: `user-${++n}`, role: "user", content: text });
export const toolResult = (toolCallId, content) => ({ id: `tool-${++n}`, role: "tool", toolCallId, content });

// lastCall is the last tool call the agent's messages hold.
export function lastCall(agent) {
  const m = agent.messages.findLast((m) => m.role === "assistant" && m.toolCalls?.length);
  assert.ok(m, "no assistant message with a tool call");
  return m.toolCalls.at(-1);
}

// lastText is the text of the agent's last assistant message.
export function lastText(agent) {
  const m = agent.messages.at(-1);
  assert.equal(m?.role, "assistant", `last message: ${JSON.stringify(m)}`);
  return m.content;
}
