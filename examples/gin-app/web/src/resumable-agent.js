// resumableAgent: an HttpAgent whose connectAgent() finds the thread's
// active run on a resumable route, for a page that was reloaded mid-run.
//
//   import * as client from "@ag-ui/client";
//   import { resumableAgent } from "./resumable-agent.js";
//   const ResumableHttpAgent = resumableAgent(client);
//   const agent = new ResumableHttpAgent({ url: "/agents/detached", threadId, initialMessages });
//   await agent.connectAgent(); // replays the active run from its start, then follows it
//
// The stock HttpAgent does not implement connect (connectAgent makes no
// request); the subclass GETs <url>/threads/<threadId>/run through
// resumableFetch, so the replay survives dropped connections too. When the
// thread has no active run (204) connectAgent resolves with no events.
// The messages the page restored must be those of finished runs only: the
// active run is replayed from its first event.
//
// It takes the client module instead of importing it, so this file has no
// dependency of its own.

import { resumableFetch } from "./resumable-fetch.js";

export function resumableAgent(client) {
  return class ResumableHttpAgent extends client.HttpAgent {
    constructor(config) {
      super({ ...config, fetch: config.fetch ?? resumableFetch() });
    }

    connect(input) {
      this.abortController = new AbortController();
      const url = `${this.url.replace(/\/$/, "")}/threads/${encodeURIComponent(input.threadId)}/run`;
      const init = {
        method: "GET",
        headers: { ...this.headers, Accept: "text/event-stream" },
        signal: this.abortController.signal,
      };
      const fetchRun = async () => {
        const resp = await this.fetch(url, init);
        if (resp.status !== 204) return resp;
        // No active run: an empty stream, so connectAgent ends quietly.
        return new Response("", { status: 200, headers: { "Content-Type": "text/event-stream" } });
      };
      return client.transformHttpEventStream(client.runHttpRequest(fetchRun), this.debugLogger);
    }
  };
}
