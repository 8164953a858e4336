// Builds and runs the Go example app for browser tests. Node built-ins
// only, so the CopilotKit interop test (test/copilotkit) imports it too.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/** The repository root, three levels above examples/gin-app/web/test. */
export const repoRoot = resolve(fileURLToPath(new URL("../../../..", import.meta.url)));

/** Where tests save screenshots; /test/artifacts/ is gitignored. */
export const artifactsDir = join(repoRoot, "test", "artifacts");

/** The Chromium the tests drive: Debian's package, never a downloaded one. */
export const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** Launch arguments for headless Chromium in CI containers. */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * startApp runs the example app on a free loopback port and resolves once
 * it logs its address; args go to the app after -addr. It runs the binary
 * AGUI_APP_BIN names (test/browser.sh builds it once for every page test:
 * each build links the race-enabled app anew), or builds
 * ./examples/gin-app itself. The caller must await stop().
 */
export async function startApp(args = []) {
  const dir = await mkdtemp(join(tmpdir(), "gin-app-"));
  let bin = process.env.AGUI_APP_BIN;
  if (!bin) {
    bin = join(dir, "gin-app");
    try {
      await promisify(execFile)("go", ["build", "-buildvcs=false", "-o", bin, "./examples/gin-app"], { cwd: repoRoot });
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }
  const proc = spawn(bin, ["-addr", "127.0.0.1:0", ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  const waiters = new Set();
  proc.stderr.setEncoding("utf8");
  proc.stderr.on("data", (chunk) => {
    log += chunk;
    for (const w of waiters) w();
  });
  const exited = once(proc, "exit");

  /** waitForLog resolves with the first match of re in the app's log. */
  function waitForLog(re, timeoutMs = 10_000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = re.exec(log);
        if (!m) return;
        done();
        resolve(m);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`gin-app log never matched ${re}; log:\n${log}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      exited.then(() => {
        if (waiters.has(check)) {
          done();
          reject(new Error(`gin-app exited; log:\n${log}`));
        }
      });
      check();
    });
  }

  let url;
  try {
    [, url] = await waitForLog(/msg=listening url=(http:\/\/\S+)/);
  } catch (err) {
    proc.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    waitForLog,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
