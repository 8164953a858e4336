// The predicate fixtures the AG-UI Dojo registers for background_agents,
// as our own code from what its setup answers: keyed on the server
// offering run_deep_research, the model calls it before any tool result
// is in the conversation, and acknowledges once one is. (After a tool
// result, the catch-all registered first in aimock.mjs answers, as the
// Dojo's prepended one does.) observational_memory has none: its
// turns, and our observer's calls, get what the fixture files answer.

const offersResearch = (req) => (req.tools ?? []).some((t) => t.function?.name === "run_deep_research");
const hasToolResult = (req) => req.messages.some((m) => m.role === "tool");

export function backgroundPredicates() {
  return [
    {
      match: { predicate: (req) => offersResearch(req) && !hasToolResult(req) },
      response: { toolCalls: [{ name: "run_deep_research", arguments: JSON.stringify({ topic: "Solana ecosystem" }) }] },
    },
    {
      match: { predicate: (req) => offersResearch(req) && hasToolResult(req) },
      response: { content: "I've kicked off the research on the Solana ecosystem in the background. You'll get the findings shortly." },
    },
  ];
}
