// resumableFetch (examples/gin-app/web/src/resumable-fetch.js) against a
// scripted loopback server, for the cases the app cannot be made to
// produce on demand: a clean end of the stream before the terminal event,
// a run whose log is gone (410), no progress at all, and a consumer that
// cancels without aborting. The official HttpAgent consumes every stream;
// a run that cannot be resumed ends with the wrapper's RUN_ERROR, and no
// unhandled rejection may escape.

const rejections = [];
process.on("unhandledRejection", (e) => rejections.push(e));

import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { HttpAgent } from "@ag-ui/client";
import { resumableFetch } from "../../examples/gin-app/web/src/resumable-fetch.js";

const frames = [
  { type: "RUN_STARTED", threadId: "t", runId: "r" },
  { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "one " },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "two " },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "three" },
  { type: "TEXT_MESSAGE_END", messageId: "m" },
  { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "success" } },
].map((ev, i) => `id: ${i + 1}\ndata: ${JSON.stringify(ev)}\n\n`);

// serve answers each request with the next step of script: a function
// (req, res) that writes what the test wants.
function serve(script) {
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method, lastEventId: req.headers["last-event-id"] });
    const step = script[Math.min(requests.length - 1, script.length - 1)];
    req.resume();
    step(req, res);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      servers.push(server);
      resolve({ url, requests });
    }),
  );
}
const servers = [];
after(() => assert.deepEqual(rejections, []));
after(() => Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r))))));

const sse = (res) => res.writeHead(200, { "Content-Type": "text/event-stream", "Content-Location": "/chat/runs/r" });
// from writes frames [a, b) and ends the response cleanly, or with half of
// frame b when half is set.
const from = (a, b, half) => (req, res) => {
  sse(res);
  res.write("retry: 1\n\n" + frames.slice(a, b).join(""));
  if (half) res.write(frames[b].slice(0, 20));
  res.end();
};

async function runWith(url, opts) {
  const agent = new HttpAgent({ url: `${url}/chat`, fetch: resumableFetch(opts), initialMessages: [{ id: "u", role: "user", content: "hi" }] });
  let error;
  const runErrors = [];
  try {
    await agent.runAgent({ runId: "r" }, { onRunErrorEvent: ({ event }) => runErrors.push(event) });
  } catch (e) {
    error = e;
  }
  return { agent, error, runErrors };
}

test("a clean end before the terminal event, mid-frame, is resumed", async () => {
  const s = await serve([from(0, 3, true), from(3, 7)]);
  const { agent, error } = await runWith(s.url);
  assert.equal(error, undefined);
  assert.equal(agent.messages.at(-1).content, "one two three");
  assert.deepEqual(s.requests.map((r) => [r.method, r.lastEventId]), [["POST", undefined], ["GET", "3"]]);
});

test("a POST that gets no answer is sent again, and joins", async () => {
  const drop = (req, res) => req.socket.destroy();
  const s = await serve([drop, from(0, 7)]);
  const { agent, error } = await runWith(s.url, { maxDelay: 5 });
  assert.equal(error, undefined);
  assert.equal(agent.messages.at(-1).content, "one two three");
  assert.deepEqual(s.requests.map((r) => r.method), ["POST", "POST"]);
});

test("a run whose log is gone fails with the server's answer", async () => {
  const gone = (req, res) => {
    res.writeHead(410, { "Content-Type": "application/json" });
    res.end(`{"error":"the run's log is no longer retained","code":"RUN_GONE"}`);
  };
  const s = await serve([from(0, 3), gone]);
  const { error, runErrors } = await runWith(s.url);
  assert.equal(error, undefined);
  assert.equal(runErrors.length, 1);
  assert.equal(runErrors[0].code, "RUN_GONE");
  assert.match(runErrors[0].message, /HTTP 410/);
});

test("reconnects without progress give up after maxAttempts", async () => {
  const s = await serve([from(0, 2), from(2, 2)]);
  const { runErrors } = await runWith(s.url, { maxAttempts: 3, maxDelay: 5 });
  assert.equal(runErrors[0]?.code, "RESUME_FAILED");
  assert.match(runErrors[0].message, /no progress after 3 reconnects/);
  assert.equal(s.requests.length, 4);
});

test("a silent connection is replaced by the idle watchdog", async () => {
  const silent = (req, res) => {
    sse(res);
    res.write("retry: 1\n\n" + frames.slice(0, 3).join(""));
  };
  const s = await serve([silent, from(3, 7)]);
  const { agent, error } = await runWith(s.url, { idleTimeout: 100 });
  assert.equal(error, undefined);
  assert.equal(agent.messages.at(-1).content, "one two three");
});

test("a consumer that cancels stops reconnecting and sends no DELETE", async () => {
  const s = await serve([from(0, 3), from(3, 3)]);
  const f = resumableFetch();
  const resp = await f(`${s.url}/chat`, { method: "POST", body: "{}" });
  const reader = resp.body.getReader();
  await reader.read();
  await reader.cancel();
  await new Promise((r) => setTimeout(r, 50)); // room for a stray reconnect to show
  assert.deepEqual(s.requests.map((r) => r.method), ["POST"]);
});
