// The official @ag-ui/client 1.0.0 HttpAgent with resumableFetch (the
// example app's web/src/resumable-fetch.js) as its fetch, talking to
// /agents/detached through a loopback proxy that cuts connections at
// random byte offsets, mid-frame included. Every run must end as if
// nothing happened: the client's pipeline raises nothing, and the events
// it decoded are exactly the run's log, in order, none twice.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { startApp, TapAgent, run, assertSchemaValid, assertClean, user } from "./harness.mjs";
import { resumableFetch } from "../../examples/gin-app/web/src/resumable-fetch.js";

// The official client's teardown can reject on a dropped socket (an
// unhandled rejection that would end the process); with the wrapper none
// may happen, so they are recorded and asserted on.
const rejections = [];
process.on("unhandledRejection", (e) => rejections.push(e));

let app;
let proxy;
before(async () => {
  app = await startApp(["-slow-interval", "2ms", "-slow-total", "400ms"]);
  proxy = await cuttingProxy(new URL(app.url));
});
after(async () => {
  await proxy?.close();
  await app?.stop();
});

// cuttingProxy forwards loopback TCP connections to target. While cuts
// remain (setCuts), each new connection is cut after a random number of
// response bytes, wherever that falls in a frame.
function cuttingProxy(target) {
  let cuts = 0;
  let made = 0;
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let budget = Infinity;
    if (cuts > 0) {
      cuts--;
      budget = 300 + Math.floor(Math.random() * 6000);
    }
    const cut = () => {
      made++;
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (b) => upstream.write(b));
    upstream.on("data", (b) => {
      if (b.length < budget) {
        budget -= b.length;
        client.write(b);
        return;
      }
      client.write(b.subarray(0, budget), cut);
      budget = 0;
    });
    for (const s of [client, upstream]) {
      s.on("error", () => {});
      s.on("close", () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        setCuts: (n) => (cuts = n),
        made: () => made,
        close: () =>
          new Promise((res) => {
            for (const s of sockets) s.destroy();
            server.close(res);
          }),
      }),
    ),
  );
}

// logOf reads a run's whole log from the app directly (no proxy).
async function logOf(runId) {
  const resp = await fetch(`${app.url}/agents/detached/runs/${runId}`);
  assert.equal(resp.status, 200);
  const text = await resp.text();
  return text
    .split("\n\n")
    .filter((f) => f.includes("data: "))
    .map((f) => JSON.parse(f.slice(f.indexOf("data: ") + 6)));
}

test("100 runs cut at random points rejoin and lose nothing", async () => {
  const runs = 100;
  proxy.setCuts(runs * 2);
  let reconnects = 0;
  const fetchImpl = resumableFetch({ onReconnect: () => reconnects++ });
  const results = await Promise.all(
    Array.from({ length: runs }, async (_, i) => {
      const runId = `resume-${Date.now()}-${i}`;
      const agent = new TapAgent({ url: `${proxy.url}/agents/detached`, fetch: fetchImpl, initialMessages: [user("go")] });
      const out = await run(agent, { runId });
      return { runId, agent, out };
    }),
  );
  assert.ok(proxy.made() >= runs, `only ${proxy.made()} connections were cut`);
  assert.ok(reconnects >= proxy.made() - runs, `${reconnects} reconnects for ${proxy.made()} cuts`);
  for (const { runId, agent, out } of results) {
    assertClean(out);
    assertSchemaValid(out.raw);
    assert.equal(out.finished.length, 1, `${runId}: one RUN_FINISHED`);
    // Exactly the run's log: same events, same order, none twice.
    assert.deepEqual(out.raw, await logOf(runId), `${runId}: the client's events differ from the run's log`);
    const text = agent.messages.at(-1).content;
    const n = text.trim().split(" ").length;
    assert.equal(text, Array.from({ length: n }, (_, k) => `${k + 1} `).join(""), `${runId}: text has a gap or a repeat`);
  }
  assert.deepEqual(rejections, []);
});

test("abortRun stops the run on the server", async () => {
  proxy.setCuts(0);
  const runId = `resume-abort-${Date.now()}`;
  const agent = new TapAgent({
    url: `${proxy.url}/agents/detached`,
    fetch: resumableFetch(),
    initialMessages: [user("go")],
  });
  let deltas = 0;
  const out = await run(agent, { runId }, {
    onTextMessageContentEvent: () => {
      if (++deltas === 3) agent.abortRun();
    },
  });
  assert.equal(out.error, undefined, "an abort is not a failure for the client");
  // The DELETE the wrapper sent ends the run: its log closes with
  // RUN_ERROR CANCELLED, long before the agent's 400 ms.
  const log = await logOf(runId);
  const last = log.at(-1);
  assert.equal(last.type, "RUN_ERROR");
  assert.equal(last.code, "CANCELLED");
});

test("a route that is not resumable passes through untouched", async () => {
  const agent = new TapAgent({ url: `${app.url}/agents/echo`, fetch: resumableFetch(), initialMessages: [user("hello there")] });
  const out = await run(agent);
  assertClean(out);
  assert.equal(agent.messages.at(-1).content, "hello there");
});

test("a reloaded page's connectAgent replays the thread's active run", async () => {
  const client = await import("@ag-ui/client");
  const { resumableAgent } = await import("../../examples/gin-app/web/src/resumable-agent.js");
  const ResumableHttpAgent = resumableAgent(client);
  const threadId = `reload-${Date.now()}`;
  // A page starts a run and is reloaded after its first bytes: the run is
  // detached and goes on.
  const first = new AbortController();
  const resp = await fetch(`${app.url}/agents/detached`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({ threadId, runId: `${threadId}-r`, protocolVersion: "1.0", messages: [user("go")] }),
    signal: first.signal,
  });
  const reader = resp.body.getReader();
  await reader.read();
  first.abort();
  await reader.cancel().catch(() => {});

  // The reloaded page knows only its thread.
  const agent = new ResumableHttpAgent({ url: `${app.url}/agents/detached`, threadId, initialMessages: [user("go")] });
  const warnings = [];
  const ow = console.warn;
  console.warn = (...a) => warnings.push(a.join(" "));
  try {
    await agent.connectAgent();
  } finally {
    console.warn = ow;
  }
  assert.deepEqual(warnings, []);
  const text = agent.messages.at(-1).content;
  const n = text.trim().split(" ").length;
  assert.ok(n > 10, `only ${n} deltas`);
  assert.equal(text, Array.from({ length: n }, (_, k) => `${k + 1} `).join(""));

  // A thread with no active run: connectAgent ends with nothing new.
  const idle = new ResumableHttpAgent({ url: `${app.url}/agents/detached`, threadId: "no-such-thread" });
  await idle.connectAgent();
  assert.equal(idle.messages.length, 0);
});
