// Replays event streams through the official client (@ag-ui/client 1.0.0,
// AbstractAgent.runAgent: verification, then apply) and reports the state
// each ends with, and every warning the client printed: a patch the
// client cannot apply is discarded with a console.warn, not an error.
//
// usage: node client.mjs <cases.json> <results.json>
// cases.json:   [{name, state, events: [...]}]
// results.json: [{name, ok, error?, state, warnings}]
import { readFileSync, writeFileSync } from "node:fs";
import { AbstractAgent } from "@ag-ui/client";
import { from } from "rxjs";

class Replay extends AbstractAgent {
  constructor(events, config) {
    super(config);
    this.events = events;
  }
  run() {
    return from(this.events);
  }
}

async function replay(c) {
  const warnings = [];
  const { warn, error } = console;
  console.warn = (...a) => warnings.push(a.map(String).join(" "));
  console.error = console.warn;
  try {
    const agent = new Replay(c.events, { threadId: "thread-1", initialState: c.state ?? {} });
    await agent.runAgent({ runId: "run-1" });
    return { name: c.name, ok: true, state: agent.state, warnings };
  } catch (e) {
    return { name: c.name, ok: false, error: String(e?.message ?? e), warnings };
  } finally {
    console.warn = warn;
    console.error = error;
  }
}

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const results = [];
for (const c of cases) results.push(await replay(c));
writeFileSync(process.argv[3], JSON.stringify(results));
