// resumableFetch: a fetch for the official @ag-ui/client HttpAgent that
// survives dropped connections on resumable routes.
//
//   import { HttpAgent } from "@ag-ui/client";
//   import { resumableFetch } from "./resumable-fetch.js";
//   const agent = new HttpAgent({ url: "/agents/detached", fetch: resumableFetch() });
//
// HttpAgentConfig.fetch is the client's public transport seam: the client
// calls it once per run with its POST and parses the body it gets back.
// When the answer names its run (a Content-Location header, as resumable
// routes send), the body handed to the client is a stream this wrapper
// feeds: it reads SSE frames, passes on whole frames only (a frame cut in
// half would corrupt the client's parser), remembers the last `id:`, and
// when the connection drops before the run's terminal event it GETs the
// run's URL with Last-Event-ID and carries on, so the client sees one
// unbroken stream with no event missing or repeated. Answers without
// Content-Location (any other route) pass through untouched.
//
// An abort of the run (HttpAgent.abortRun, the client's AbortSignal) is a
// deliberate stop: the wrapper sends DELETE to the run's URL and does not
// reconnect. A consumer that cancels the body without aborting only stops
// reading; the run goes on on the server. A run that cannot be resumed (its
// log is gone, or maxAttempts reconnects in a row made no progress) ends
// with a RUN_ERROR frame of the wrapper's own, code RESUME_FAILED or the
// server's error code (RUN_GONE, FORBIDDEN, …).
//
// Options (all optional):
//   fetch        the underlying fetch (default globalThis.fetch)
//   maxAttempts  reconnects in a row without progress before giving up (5)
//   idleTimeout  ms without a byte, heartbeats included, before the
//                connection is taken for dead and replaced (35000: twice
//                the server's 15 s heartbeat, plus slack)
//   maxDelay     cap of the exponential backoff between attempts, ms (8000)
//   onReconnect  called with {cursor, attempt} before each reconnect

const TERMINAL = new Set(["RUN_FINISHED", "RUN_ERROR"]);

export function resumableFetch(options = {}) {
  const baseFetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const maxAttempts = options.maxAttempts ?? 5;
  const idleTimeout = options.idleTimeout ?? 35000;
  const maxDelay = options.maxDelay ?? 8000;
  const onReconnect = options.onReconnect ?? (() => {});

  // post sends the run's request. A POST that fails before any answer
  // (the connection dropped, the replica was restarting) is sent again: a
  // resumable route joins a run whose runId it knows instead of starting
  // it twice, and the client has seen none of its events yet.
  async function post(input, init) {
    for (let attempt = 1; ; attempt++) {
      try {
        const resp = await baseFetch(input, init);
        if (resp.status !== 503 || attempt >= maxAttempts) return resp;
        await resp.body?.cancel().catch(() => {});
      } catch (err) {
        if (init.signal?.aborted || attempt >= maxAttempts || typeof init.body !== "string") throw err;
      }
      await delay(Math.min(1000 * 2 ** (attempt - 1), maxDelay), init.signal);
    }
  }

  return async function fetchResumable(input, init = {}) {
    const first = await post(input, init);
    const location = first.headers.get("content-location");
    if (!first.ok || !location || !first.body) return first;
    const base = typeof input === "string" ? input : input.url;
    const runURL = new URL(location, new URL(base, globalThis.location?.href)).toString();
    const headers = resumeHeaders(init.headers);
    const signal = init.signal;

    let attemptAbort = new AbortController();
    let stopped = false;
    let reader;

    const stopAttempt = () => {
      attemptAbort.abort();
      reader?.cancel().catch(() => {});
    };

    const body = new ReadableStream({
      async start(controller) {
        const encoder = new TextEncoder();
        let cursor = 0;
        let retry = 1000;
        let attempts = 0;
        let response = first;
        let finished = false;

        const onAbort = () => {
          if (stopped) return;
          stopped = true;
          stopAttempt();
          if (!finished) {
            // A deliberate stop ends the run wherever it runs.
            baseFetch(runURL, { method: "DELETE", headers }).catch(() => {});
          }
          try {
            controller.error(signal.reason ?? new DOMException("The run was aborted", "AbortError"));
          } catch {
            // the stream is already closed
          }
        };
        if (signal) {
          if (signal.aborted) return onAbort();
          signal.addEventListener("abort", onAbort, { once: true });
        }

        try {
          for (;;) {
            let progressed = false;
            if (response) {
              reader = response.body.getReader();
              const decoder = new TextDecoder();
              let buf = "";
              try {
                for (;;) {
                  const { done, value } = await readWithin(reader, idleTimeout, stopAttempt);
                  if (done || stopped) break;
                  buf += decoder.decode(value, { stream: true });
                  let end;
                  while ((end = buf.indexOf("\n\n")) >= 0) {
                    const text = buf.slice(0, end + 2);
                    buf = buf.slice(end + 2);
                    const frame = parseFrame(text);
                    if (frame.retry !== undefined) retry = frame.retry;
                    if (frame.id !== undefined) {
                      if (frame.id <= cursor) continue; // seen already
                      cursor = frame.id;
                      progressed = true;
                    }
                    if (frame.data === undefined) continue; // comments, retry
                    controller.enqueue(encoder.encode(text));
                    if (TERMINAL.has(typeOf(frame.data))) finished = true;
                  }
                  if (finished) break;
                }
              } catch {
                // the connection dropped: reconnect below
              }
              reader.cancel().catch(() => {});
            }
            if (stopped) return;
            if (finished) {
              signal?.removeEventListener("abort", onAbort);
              controller.close();
              return;
            }
            attempts = progressed ? 1 : attempts + 1;
            if (attempts > maxAttempts) {
              throw new Error(`resumableFetch: no progress after ${maxAttempts} reconnects to ${runURL}`);
            }
            await delay(Math.min(retry * 2 ** (attempts - 1), maxDelay), signal);
            if (stopped) return;
            onReconnect({ cursor, attempt: attempts });
            attemptAbort = new AbortController();
            response = undefined;
            let r;
            try {
              r = await baseFetch(runURL, {
                method: "GET",
                headers: { ...headers, "Last-Event-ID": String(cursor) },
                signal: attemptAbort.signal,
              });
            } catch {
              continue; // unreachable: try again
            }
            if (r.status === 204) {
              // Nothing more will come.
              controller.close();
              return;
            }
            if (r.ok && r.body) {
              response = r;
              continue;
            }
            if (r.status >= 500 || r.status === 429) continue;
            const detail = (await r.text().catch(() => "")).trim();
            let code = "RESUME_FAILED";
            try {
              code = JSON.parse(detail).code ?? code;
            } catch {
              // not JSON: keep the generic code
            }
            throw Object.assign(new Error(`resumableFetch: HTTP ${r.status} rejoining ${runURL}: ${detail}`), { code });
          }
        } catch (err) {
          if (!stopped) {
            stopped = true;
            signal?.removeEventListener("abort", onAbort);
            // The run cannot be resumed: it ends with a RUN_ERROR, which the
            // protocol allows at any point, rather than with a broken body
            // (the 1.0 client would rethrow that from its teardown as an
            // unhandled rejection).
            const ev = { type: "RUN_ERROR", message: err.message, code: err.code ?? "RESUME_FAILED" };
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(ev)}\n\n`));
            controller.close();
          }
        }
      },
      cancel() {
        // The consumer stopped reading: no reconnect, no stop.
        stopped = true;
        stopAttempt();
      },
    });
    return new Response(body, { status: first.status, statusText: first.statusText, headers: first.headers });
  };
}

// resumeHeaders keeps the request's headers that a rejoin needs
// (authentication above all), without the body's.
function resumeHeaders(h) {
  const out = {};
  new Headers(h ?? {}).forEach((v, k) => {
    if (k !== "content-type" && k !== "content-length") out[k] = v;
  });
  out.accept = "text/event-stream";
  return out;
}

// parseFrame reads the fields of one SSE frame that the wrapper uses.
function parseFrame(text) {
  const frame = {};
  const data = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    else if (line.startsWith("id:")) {
      const v = line.slice(3).trim();
      if (/^\d+$/.test(v)) frame.id = Number(v);
    } else if (line.startsWith("retry:")) {
      const v = line.slice(6).trim();
      if (/^\d+$/.test(v)) frame.retry = Number(v);
    }
  }
  if (data.length > 0) frame.data = data.join("\n");
  return frame;
}

function typeOf(data) {
  try {
    return JSON.parse(data)?.type;
  } catch {
    return undefined;
  }
}

// readWithin reads one chunk, or gives up on the connection after ms of
// silence.
function readWithin(reader, ms, giveUp) {
  let timer;
  const idle = new Promise((_, reject) => {
    timer = setTimeout(() => {
      giveUp();
      reject(new Error("resumableFetch: the connection went silent"));
    }, ms);
  });
  return Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
}

function delay(ms, signal) {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
