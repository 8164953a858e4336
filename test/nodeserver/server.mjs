// An AG-UI server written with the official packages only: every event is
// built with @ag-ui/core's EventType and written by @ag-ui/encoder's
// EventEncoder, which picks SSE or protobuf from the request's Accept
// header. It listens on 127.0.0.1 at a port the system picks and prints
// "listening PORT" once ready; nodeserver_test.go drives it with the Go
// client.
//
//   POST /agents/chat   reasoning with its encrypted value, a text
//                       message, a tool call and its result, a state
//                       snapshot and two deltas, a TEXT_MESSAGE_CHUNK
//                       message, RUN_FINISHED
//   POST /agents/error  a text message, then RUN_ERROR
import http from "node:http";
import { EventType } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";

// lastUserText is the text of the input's last user message, so the
// answer shows the request reached us.
function lastUserText(input) {
  const user = (input.messages ?? []).filter((m) => m.role === "user").at(-1);
  if (!user) return "";
  if (typeof user.content === "string") return user.content;
  return (user.content ?? []).filter((p) => p.type === "text").map((p) => p.text).join("");
}

function chat(input) {
  const { threadId, runId } = input;
  return [
    { type: EventType.RUN_STARTED, threadId, runId },
    { type: EventType.REASONING_START, messageId: "r1" },
    { type: EventType.REASONING_MESSAGE_START, messageId: "r1", role: "reasoning" },
    { type: EventType.REASONING_MESSAGE_CONTENT, messageId: "r1", delta: "The user wants " },
    { type: EventType.REASONING_MESSAGE_CONTENT, messageId: "r1", delta: "the weather." },
    { type: EventType.REASONING_MESSAGE_END, messageId: "r1" },
    { type: EventType.REASONING_END, messageId: "r1" },
    { type: EventType.REASONING_ENCRYPTED_VALUE, subtype: "message", entityId: "r1", encryptedValue: "opaque-chain" },
    { type: EventType.STATE_SNAPSHOT, snapshot: { city: "Lisbon", steps: [] } },
    { type: EventType.TEXT_MESSAGE_START, messageId: "m1", role: "assistant" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "You asked: " },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: lastUserText(input) },
    { type: EventType.TEXT_MESSAGE_END, messageId: "m1" },
    { type: EventType.TOOL_CALL_START, toolCallId: "c1", toolCallName: "weather", parentMessageId: "m1" },
    { type: EventType.TOOL_CALL_ARGS, toolCallId: "c1", delta: '{"city":' },
    { type: EventType.TOOL_CALL_ARGS, toolCallId: "c1", delta: '"Lisbon"}' },
    { type: EventType.TOOL_CALL_END, toolCallId: "c1" },
    { type: EventType.TOOL_CALL_RESULT, messageId: "t1", toolCallId: "c1", content: '{"celsius":21}', role: "tool" },
    { type: EventType.STATE_DELTA, delta: [{ op: "add", path: "/celsius", value: 21 }, { op: "add", path: "/steps/-", value: "weather" }] },
    { type: EventType.STATE_DELTA, delta: [{ op: "replace", path: "/city", value: "Lisboa" }] },
    { type: EventType.TEXT_MESSAGE_CHUNK, messageId: "m2", role: "assistant", delta: "It is 21 °C " },
    { type: EventType.TEXT_MESSAGE_CHUNK, messageId: "m2", delta: "in Lisbon." },
    { type: EventType.RUN_FINISHED, threadId, runId },
  ];
}

function failing(input) {
  const { threadId, runId } = input;
  return [
    { type: EventType.RUN_STARTED, threadId, runId },
    { type: EventType.TEXT_MESSAGE_START, messageId: "m1", role: "assistant" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "Looking it up." },
    { type: EventType.TEXT_MESSAGE_END, messageId: "m1" },
    { type: EventType.RUN_ERROR, message: "the weather service is down", code: "UPSTREAM_DOWN" },
  ];
}

const routes = { "/agents/chat": chat, "/agents/error": failing };

const server = http.createServer(async (req, res) => {
  const route = routes[req.url];
  if (req.method !== "POST" || !route) {
    res.writeHead(404).end();
    return;
  }
  let input;
  try {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    res.writeHead(400, { "Content-Type": "application/json" }).end('{"error":"the body is not JSON"}');
    return;
  }
  const encoder = new EventEncoder({ accept: req.headers.accept });
  res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
  for (const ev of route(input)) res.write(encoder.encodeBinary(ev));
  res.end();
});

server.listen(0, "127.0.0.1", () => {
  console.log(`listening ${server.address().port}`);
});
