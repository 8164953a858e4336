// The chat page in headless Chromium loses the network mid-answer: the
// page talks to the app through a loopback proxy that cuts the connection
// of an event stream after a few kilobytes, twice. The page's
// resumableFetch rejoins the run, and the answer it shows has no gap and
// no repeated delta.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { artifactsDir, chromiumArgs, chromiumPath, startApp } from "./goapp.mjs";

let app;
let proxy;
let context;
let profile;

before(async () => {
  await mkdir(artifactsDir, { recursive: true });
  app = await startApp(["-slow-interval", "5ms", "-slow-total", "1500ms"]);
  proxy = await streamCutter(new URL(app.url));
  profile = await mkdtemp(join(tmpdir(), "chromium-profile-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1100, height: 700 },
  });
});

after(async () => {
  await context?.close();
  await proxy?.close();
  await app?.stop();
  if (profile) await rm(profile, { recursive: true, force: true });
});

// streamCutter forwards loopback TCP connections to target; while cuts
// remain, a connection that starts an event stream is cut after a random
// 1-4 KB of it, mid-frame as likely as not, as a lost network would.
function streamCutter(target) {
  let cuts = 0;
  let made = 0;
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let budget = Infinity;
    client.on("data", (b) => upstream.write(b));
    upstream.on("data", (b) => {
      if (budget === Infinity && cuts > 0 && b.includes("text/event-stream")) {
        cuts--;
        budget = 1000 + Math.floor(Math.random() * 3000);
      }
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

test("a detached run survives the network dropping mid-answer", async () => {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  const rejoins = [];
  page.on("request", (req) => {
    if (req.method() === "GET" && req.url().includes("/agents/detached/runs/")) rejoins.push(req.headers()["last-event-id"]);
  });
  await page.goto(proxy.url + "/");
  await page.locator("#status").filter({ hasText: "ready" }).waitFor();
  await page.getByLabel("Agent").selectOption("/agents/detached");
  proxy.setCuts(2);
  await page.getByLabel("Message").fill("go");
  await page.getByLabel("Message").press("Enter");
  await page.waitForFunction(() => document.body.dataset.running === "false", null, { timeout: 30_000 });
  await page.screenshot({ path: join(artifactsDir, "web-resume.png"), fullPage: true });

  assert.equal(proxy.made(), 2, "the proxy did not cut the stream twice");
  assert.ok(rejoins.length >= 2 && rejoins.every((id) => /^\d+$/.test(id)), `rejoins: ${JSON.stringify(rejoins)}`);
  assert.equal(await page.locator("#status").textContent(), "done");
  const text = await page.locator("li[data-role=assistant]").last().textContent();
  const numbers = text.trim().split(/\s+/).map(Number);
  assert.ok(numbers.length > 100, `only ${numbers.length} deltas shown`);
  assert.deepEqual(numbers, numbers.map((_, i) => i + 1), "the answer has a gap or a repeated delta");
  // Chromium reports each cut connection itself; nothing else may fail.
  const cutsSeen = errors.filter((e) => /net::ERR_(INCOMPLETE_CHUNKED_ENCODING|CONNECTION_RESET|EMPTY_RESPONSE)/.test(e));
  assert.ok(cutsSeen.length <= 2, `${cutsSeen.length} network errors for 2 cuts`);
  assert.deepEqual(errors.filter((e) => !cutsSeen.includes(e)), [], "the page logged errors");
  await page.close();
});
