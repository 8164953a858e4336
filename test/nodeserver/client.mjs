// Runs the official @ag-ui/client 1.0.0 HttpAgent once against the URL in
// argv[2] and prints, as one JSON line, what a caller of the client sees:
// the raw events the transport decoded, the events its pipeline handed to
// subscribers (after chunk expansion and verification), the messages and
// state it reduced them into, the RUN_ERROR it reported, its console
// warnings and errors, and whether runAgent rejected. argv[3], if given,
// is the Accept header (the client asks for SSE by default).
// proxy_test.go runs it against server.mjs directly and through our proxy.
import { HttpAgent } from "@ag-ui/client";
import { tap } from "rxjs";

class Recorder extends HttpAgent {
  constructor(opts, accept) {
    super(opts);
    this.raw = [];
    this.accept = accept;
  }
  requestInit(input) {
    const init = super.requestInit(input);
    if (this.accept) init.headers = { ...init.headers, Accept: this.accept };
    return init;
  }
  run(input) {
    return super.run(input).pipe(tap((ev) => this.raw.push(ev)));
  }
}

const [url, accept] = process.argv.slice(2);
const agent = new Recorder(
  {
    url,
    threadId: "thread-1",
    initialMessages: [{ id: "u1", role: "user", content: "Weather in Lisbon?" }],
  },
  accept,
);
const out = { seen: [], runErrors: [], warnings: [], errors: [] };
console.warn = (...a) => out.warnings.push(a.map(String).join(" "));
console.error = (...a) => out.errors.push(a.map(String).join(" "));
try {
  await agent.runAgent(
    { runId: "run-1" },
    {
      onEvent: ({ event }) => {
        out.seen.push(event);
      },
      onRunErrorEvent: ({ event }) => {
        out.runErrors.push(event);
      },
    },
  );
} catch (e) {
  out.rejected = String(e?.message ?? e);
}
out.raw = agent.raw;
out.messages = agent.messages;
out.state = agent.state;
process.stdout.write(JSON.stringify(out) + "\n");
