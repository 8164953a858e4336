// Two processes of the example app on one redis-server (-redis), behind a
// loopback proxy that sends each new connection to the next replica and
// cuts connections at random byte offsets: the official client with
// resumableFetch starts a run on one replica and rejoins it on the other,
// and still gets exactly the run's log. Skipped when redis-server is not
// installed, unless CI is set.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import net from "node:net";
import { startApp, TapAgent, run, assertClean, user } from "./harness.mjs";
import { resumableFetch } from "../../examples/gin-app/web/src/resumable-fetch.js";

let redisBin;
try {
  redisBin = execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim();
} catch {
  redisBin = "";
}
if (!redisBin && process.env.CI) throw new Error("redis-server is not installed (apt-get install redis-server)");
const skip = redisBin ? false : "redis-server is not installed; CI is unset";

const rejections = [];
process.on("unhandledRejection", (e) => rejections.push(e));

let redis;
let redisDir;
let apps = [];
let proxy;

before(async () => {
  if (skip) return;
  const port = await freePort();
  redisDir = mkdtempSync(join(tmpdir(), "agui-redis-"));
  redis = spawn(redisBin, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", redisDir], { stdio: "ignore" });
  await waitListening(port);
  const args = ["-redis", `redis://127.0.0.1:${port}`, "-run-lease", "2s", "-slow-interval", "2ms", "-slow-total", "400ms"];
  apps = await Promise.all(["a", "b"].map((r) => startApp([...args, "-replica", r])));
  proxy = await roundRobinCutter(apps.map((a) => new URL(a.url)));
});

after(async () => {
  await proxy?.close();
  await Promise.all(apps.map((a) => a.stop()));
  redis?.kill("SIGKILL");
  if (redisDir) rmSync(redisDir, { recursive: true, force: true });
});

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitListening(port) {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise((res) => {
      const c = net.connect(port, "127.0.0.1", () => (c.destroy(), res(true)));
      c.on("error", () => res(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25)); // another process is starting
  }
  throw new Error("redis-server did not start");
}

// roundRobinCutter sends each new connection to the next target; while
// cuts remain, a connection is cut after a random number of response bytes.
function roundRobinCutter(targets) {
  let next = 0;
  let cuts = 0;
  let made = 0;
  const sockets = new Set();
  const server = net.createServer((client) => {
    const t = targets[next++ % targets.length];
    const upstream = net.connect(Number(t.port), t.hostname);
    sockets.add(client).add(upstream);
    let budget = Infinity;
    if (cuts > 0) {
      cuts--;
      budget = 300 + Math.floor(Math.random() * 5000);
    }
    client.on("data", (b) => upstream.write(b));
    upstream.on("data", (b) => {
      if (b.length < budget) {
        budget -= b.length;
        client.write(b);
        return;
      }
      client.write(b.subarray(0, budget), () => {
        made++;
        client.destroy();
        upstream.destroy();
      });
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

async function logOf(base, runId) {
  const text = await (await fetch(`${base}/agents/detached/runs/${runId}`)).text();
  return text
    .split("\n\n")
    .filter((f) => f.includes("data: "))
    .map((f) => JSON.parse(f.slice(f.indexOf("data: ") + 6)));
}

test("runs cut on one replica are rejoined on the other", { skip }, async () => {
  const runs = 10;
  proxy.setCuts(runs * 2);
  const fetchImpl = resumableFetch();
  const results = await Promise.all(
    Array.from({ length: runs }, async (_, i) => {
      const runId = `replicas-${Date.now()}-${i}`;
      const agent = new TapAgent({ url: `${proxy.url}/agents/detached`, fetch: fetchImpl, initialMessages: [user("go")] });
      return { runId, agent, out: await run(agent, { runId }) };
    }),
  );
  assert.ok(proxy.made() >= runs, `only ${proxy.made()} cuts`);
  for (const { runId, agent, out } of results) {
    assertClean(out);
    // Both replicas serve the same log, and it is what the client got.
    const [la, lb] = await Promise.all(apps.map((a) => logOf(a.url, runId)));
    assert.deepEqual(la, lb, `${runId}: the replicas disagree`);
    assert.deepEqual(out.raw, la, `${runId}: the client's events differ from the run's log`);
    const text = agent.messages.at(-1).content;
    const n = text.trim().split(" ").length;
    assert.equal(text, Array.from({ length: n }, (_, k) => `${k + 1} `).join(""));
  }
  assert.deepEqual(rejections, []);
});
