// The harness can fail: a loopback server written here sends streams the
// official client must refuse or warn about, and the checks the route
// tests rely on (runAgent's rejection, assertClean, assertSchemaValid)
// must catch each.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { TapAgent, run, assertClean, assertSchemaValid, user, missing } from "./harness.mjs";

let server;
let base;
const streams = new Map();

before(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      for (const ev of streams.get(req.url) ?? []) res.write(`data: ${JSON.stringify(ev)}\n\n`);
      res.end();
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((r) => server.close(r)));

const started = { type: "RUN_STARTED", threadId: "t", runId: "r" };
const finished = { type: "RUN_FINISHED", threadId: "t", runId: "r" };

streams.set("/content-before-start", [started, { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "x" }, finished]);
streams.set("/unknown-key", [started, { type: "CUSTOM", name: "n", value: 1, surprise: true }, finished]);
streams.set("/bad-patch", [started, { type: "STATE_DELTA", delta: [{ op: "replace", path: "/missing/deep", value: 1 }] }, finished]);
streams.set("/float-timestamp", [started, { type: "CUSTOM", name: "n", value: 1, timestamp: 1.5 }, finished]);

const agent = (path) => new TapAgent({ url: base + path, initialMessages: [user("x")] });

test("the verifier's rejection surfaces as an error", async () => {
  const out = await run(agent("/content-before-start"));
  assert.match(String(out.error?.message), /No active text message/);
  assert.throws(() => assertClean(out));
});

test("a stripped unknown key fails assertClean", async () => {
  const out = await run(agent("/unknown-key"));
  assert.equal(out.error, undefined);
  assert.ok(out.warnings.some((w) => w.includes("[ag-ui][enforce]")), out.warnings.join("\n"));
  assert.throws(() => assertClean(out));
});

test("a patch the client cannot apply fails assertClean", async () => {
  const out = await run(agent("/bad-patch"));
  assert.ok(out.warnings.some((w) => w.includes("Failed to apply")) || out.error, JSON.stringify(out.warnings));
  assert.throws(() => assertClean(out));
});

test("a schema violation fails assertSchemaValid", async () => {
  const out = await run(agent("/float-timestamp"));
  assert.ok(out.error, "the client must reject a float timestamp");
  assert.throws(() => assertSchemaValid(out.raw));
});

test("missing fails under CI=true and skips otherwise", () => {
  const saved = process.env.CI;
  const skipped = [];
  const t = { skip: (why) => skipped.push(why) };
  try {
    process.env.CI = "true";
    assert.throws(() => missing(t, "no widget"), /no widget \(CI=true/);
    assert.deepEqual(skipped, []);
    for (const ci of [undefined, "false"]) {
      if (ci === undefined) delete process.env.CI;
      else process.env.CI = ci;
      missing(t, "no widget");
    }
    assert.deepEqual(skipped, ["no widget", "no widget"]);
  } finally {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  }
});
