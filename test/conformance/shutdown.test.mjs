// Graceful shutdown seen by the official client: SIGTERM while a long run
// streams. The client must get a terminal RUN_ERROR with code CANCELLED
// (not a cut stream) and the app must exit cleanly.

import { test } from "node:test";
import assert from "node:assert/strict";
import { startApp, TapAgent, run, assertSchemaValid, user } from "./harness.mjs";

test("SIGTERM mid-stream: in-flight clients get RUN_ERROR CANCELLED, the app exits 0", async () => {
  const app = await startApp();
  let stopping;
  try {
    const agent = new TapAgent({ url: `${app.url}/agents/slow`, initialMessages: [user("go", "u1")] });
    let deltas = 0;
    const out = await run(agent, {}, {
      onTextMessageContentEvent: () => {
        if (++deltas === 2) stopping = app.stop();
      },
    });
    assertSchemaValid(out.raw);
    assert.equal(out.error, undefined, String(out.error));
    assert.deepEqual(out.warnings, []);
    const last = out.raw.at(-1);
    assert.equal(last.type, "RUN_ERROR", JSON.stringify(last));
    assert.equal(last.code, "CANCELLED");
    assert.equal(out.runErrors.length, 1);
    assert.ok(deltas >= 2);
  } finally {
    const exit = await (stopping ?? app.stop());
    assert.deepEqual(exit, { code: 0, signal: null });
  }
  assert.ok(app.lines.some((l) => l.includes("shutting down")));
});
