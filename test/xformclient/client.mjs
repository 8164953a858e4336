// Runs event streams through the official client pipeline
// (AbstractAgent.runAgent: compatibility boundary, enforcement, chunk
// expansion, verification, apply) and reports what the client ends with.
//
// usage: node client.mjs <cases.json> <results.json>
// cases.json: [{name, client: "1.0" | "0.0.58", state, events: [...]}]
// results.json: [{name, ok, error?, state?, messages?, warnings}]
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { AbstractAgent } from "@ag-ui/client";
import { AbstractAgent as AbstractAgent0058 } from "agui-client-0058";
import { from } from "rxjs";

// arrayAgent makes an agent class whose run() replays a fixed stream.
const arrayAgent = (Base) =>
  class extends Base {
    constructor(events, config) {
      super(config);
      this.events = events;
    }
    run() {
      return from(this.events);
    }
  };
const Agent10 = arrayAgent(AbstractAgent);
const Agent0058 = arrayAgent(AbstractAgent0058);
// The 0.0.58 HttpAgent parses every SSE event with its core's
// EventSchemas before the pipeline sees it; that is where an old client
// meets event types it does not know.
const EventSchemas0058 = createRequire(import.meta.resolve("agui-client-0058"))("@ag-ui/core").EventSchemas;

async function runCase(c) {
  const old = c.client === "0.0.58";
  const warnings = [];
  const warn = console.warn, error = console.error;
  console.warn = (...a) => warnings.push(a.join(" "));
  console.error = (...a) => warnings.push(a.join(" "));
  try {
    const events = old ? c.events.map((e) => EventSchemas0058.parse(e)) : c.events;
    const Agent = old ? Agent0058 : Agent10;
    const agent = new Agent(events, { threadId: "thread-1", initialState: c.state ?? {} });
    await agent.runAgent({ runId: "run-1" });
    return { name: c.name, ok: true, state: agent.state, messages: agent.messages, warnings };
  } catch (e) {
    return { name: c.name, ok: false, error: String(e && e.message ? e.message : e), warnings };
  } finally {
    console.warn = warn;
    console.error = error;
  }
}

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const results = [];
for (const c of cases) results.push(await runCase(c));
writeFileSync(process.argv[3], JSON.stringify(results));
