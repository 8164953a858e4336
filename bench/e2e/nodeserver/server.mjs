// The Node.js peer of the end-to-end benchmark (bench/e2e): node:http with
// the official @ag-ui/encoder and @ag-ui/core 1.0.0, as a hand-written AG-UI
// server on Node would be. Each POST's input is checked with the official
// RunAgentInputSchema; each event is built as a plain object per request
// and written as soon as it is built (waiting for "drain" when the socket
// is behind).
//
// Routes (POST, a RunAgentInput body): /fixture streams the standard
// fixture (1,018 events), /thread answers a thread (of any length: the
// input is checked whole) with 7 events, /idle streams RUN_STARTED and
// holds the stream until the client leaves. The server listens on
// 127.0.0.1 with a free port (on node:http2, cleartext, with --h2), prints
// "listening <host:port>" on stdout, and exits when stdin closes.
import http from "node:http";
import http2 from "node:http2";
import { EventType } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { EventEncoder } from "@ag-ui/encoder";

const MESSAGE_ID = "msg-5c1f8a90";
const TOOL_CALL_ID = "call-3e7b2d41";
const TOOL_NAME = "search_recipes";
const TOOL_MESSAGE_ID = "msg-tool-9a2b";
const TOOL_ARGS =
  '{"query":"vegetarian lasagna with spinach and ricotta","max_results":10,"filters":{"cuisine":"italian","max_minutes":90}}';
const TOOL_RESULT =
  '{"results":[{"id":"r1","title":"Spinach Lasagna","minutes":75},{"id":"r2","title":"Ricotta Bake","minutes":60}]}';

// The fixture's strings (as a model would hand them over), computed once.
const WORDS = ["the ", "quick ", "brown ", "fox ", "jumps ", "over ", "a ", "lazy ", "dog, ", "then "];
const DELTAS = Array.from({ length: 1000 }, (_, i) =>
  (WORDS[i % 10] + WORDS[(i + 3) % 10] + String(i).padStart(3, "0") + " ").padEnd(20, ".").slice(0, 20),
);
const ARGS = Array.from({ length: 10 }, (_, i) =>
  TOOL_ARGS.slice(Math.floor((i * TOOL_ARGS.length) / 10), Math.floor(((i + 1) * TOOL_ARGS.length) / 10)),
);

const THREAD_DELTAS = ["Here is ", "the answer ", "you asked for."];

// fixtureState is a new copy of the 2,104-byte snapshot state.
function fixtureState() {
  const units = ["g", "ml", "cup", "tbsp", "pcs"];
  const ingredients = Array.from({ length: 16 }, (_, i) => ({
    name: `ingredient-${String(i + 1).padStart(2, "0")}`,
    quantity: (i % 5) + 1,
    unit: units[i % 5],
    optional: i % 4 === 0,
  }));
  const steps = Array.from({ length: 8 }, (_, i) => ({
    index: i,
    text: `Step ${i + 1}: ` + "stir gently ".repeat(5),
    done: i < 3,
  }));
  return {
    recipe: {
      title: "Vegetarian Lasagna",
      servings: 6,
      tags: ["vegetarian", "italian", "baked", "family"],
      ingredients,
      steps,
    },
    ui: { selectedTab: "ingredients", expanded: true, scroll: 120 },
    revision: 42,
  };
}

// fixture yields the standard run's events, each built when asked for.
function* fixture(input) {
  const { threadId, runId } = input;
  const now = () => Date.now();
  yield { type: EventType.RUN_STARTED, threadId, runId, timestamp: now() };
  yield { type: EventType.TEXT_MESSAGE_START, messageId: MESSAGE_ID, role: "assistant", timestamp: now() };
  for (const delta of DELTAS) {
    yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: MESSAGE_ID, delta, timestamp: now() };
  }
  yield { type: EventType.TEXT_MESSAGE_END, messageId: MESSAGE_ID, timestamp: now() };
  yield { type: EventType.TOOL_CALL_START, toolCallId: TOOL_CALL_ID, toolCallName: TOOL_NAME, timestamp: now() };
  for (const delta of ARGS) {
    yield { type: EventType.TOOL_CALL_ARGS, toolCallId: TOOL_CALL_ID, delta, timestamp: now() };
  }
  yield { type: EventType.TOOL_CALL_END, toolCallId: TOOL_CALL_ID, timestamp: now() };
  yield {
    type: EventType.TOOL_CALL_RESULT,
    messageId: TOOL_MESSAGE_ID,
    toolCallId: TOOL_CALL_ID,
    content: TOOL_RESULT,
    role: "tool",
    timestamp: now(),
  };
  yield { type: EventType.STATE_SNAPSHOT, snapshot: fixtureState(), timestamp: now() };
  yield { type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: "success" }, timestamp: now() };
}

// thread yields the answer to a thread: a text message of three deltas.
function* thread(input) {
  const { threadId, runId } = input;
  const now = () => Date.now();
  yield { type: EventType.RUN_STARTED, threadId, runId, timestamp: now() };
  yield { type: EventType.TEXT_MESSAGE_START, messageId: MESSAGE_ID, role: "assistant", timestamp: now() };
  for (const delta of THREAD_DELTAS) {
    yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: MESSAGE_ID, delta, timestamp: now() };
  }
  yield { type: EventType.TEXT_MESSAGE_END, messageId: MESSAGE_ID, timestamp: now() };
  yield { type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: "success" }, timestamp: now() };
}

// readInput reads and checks the request's RunAgentInput.
async function readInput(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return RunAgentInputSchema.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
}

// writable resolves once res can take more, or is closed.
function writable(res) {
  return new Promise((resolve) => {
    res.once("drain", resolve);
    res.once("close", resolve);
  });
}

async function handle(req, res) {
  const route = req.method === "POST" ? req.url : "";
  if (route !== "/fixture" && route !== "/idle" && route !== "/thread") {
    res.writeHead(404).end();
    return;
  }
  let input;
  try {
    input = await readInput(req);
  } catch (err) {
    res.writeHead(400, { "Content-Type": "text/plain" }).end(String(err));
    return;
  }
  const encoder = new EventEncoder({ accept: req.headers.accept });
  res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
  if (route === "/idle") {
    res.write(encoder.encode({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId, timestamp: Date.now() }));
    return; // the response stays open until the client leaves
  }
  const events = route === "/thread" ? thread(input) : fixture(input);
  for (const event of events) {
    if (res.destroyed) return;
    if (!res.write(encoder.encode(event))) await writable(res);
  }
  res.end();
}

// --h2: cleartext HTTP/2 on node:http2's compatibility API, many streams
// per connection.
const h2 = process.argv.includes("--h2");
const onRequest = (req, res) => {
  handle(req, res).catch(() => res.destroy());
};
const server = h2 ? http2.createServer(onRequest) : http.createServer(onRequest);
server.listen(0, "127.0.0.1", () => {
  const { address, port } = server.address();
  process.stdout.write(`listening ${address}:${port}\n`);
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
