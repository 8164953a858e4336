// The predicate fixtures for subgraphs, our own code. The Dojo's fixture
// file for the page is empty and its setup's predicates answer
// LangGraph's graph (a routing tool its supervisor node writes the result
// of itself), so these answer our supervisor the same way in spirit: by
// the status lines of its system prompt ("Flights found: false" and so
// on, the keys the Dojo's predicates test), a specialist per missing
// part, and by the experiences agent's own prompt. They come before the
// catch-all that answers any request ending in a tool result: our
// supervisor goes on after a specialist's result, where LangGraph's graph
// routes without asking the model about one.

const sysOf = (req) => {
  const m = req.messages.find((m) => m.role === "system");
  return typeof m?.content === "string" ? m.content : "";
};
const offers = (req, name) => (req.tools ?? []).some((t) => t.function?.name === name);
const call = (name, args) => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

// The experiences agent's answer; the supervisor's last answer keys on
// nothing but the status.
export const experiencesText = "I found some wonderful experiences for your trip to San Francisco: Pier 39, the Golden Gate Bridge, Swan Oyster Depot and Tartine Bakery.";
export const planText = "Your trip is planned: your flight, your hotel and four experiences in San Francisco.";

export function subgraphsPredicates() {
  const supervisor = (req) => offers(req, "flights_agent") && offers(req, "hotels_agent") && offers(req, "experiences_agent");
  const status = (req, line) => sysOf(req).includes(line);
  return [
    {
      match: { predicate: (req) => sysOf(req).includes("You are the experiences agent") },
      response: { content: experiencesText },
    },
    {
      match: { predicate: (req) => supervisor(req) && status(req, "Flights found: false") },
      response: call("flights_agent", { origin: "Amsterdam", destination: "San Francisco" }),
    },
    {
      match: { predicate: (req) => supervisor(req) && status(req, "Hotels found: false") },
      response: call("hotels_agent", { destination: "San Francisco" }),
    },
    {
      match: { predicate: (req) => supervisor(req) && status(req, "Experiences found: false") },
      response: call("experiences_agent", { task: "Find restaurants and activities in San Francisco" }),
    },
    {
      match: { predicate: (req) => supervisor(req) && status(req, "Experiences found: true") },
      response: { content: planText },
    },
  ];
}
