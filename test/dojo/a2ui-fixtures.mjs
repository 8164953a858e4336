// The predicate fixtures the AG-UI Dojo registers in code for its four
// A2UI pages (a2ui_fixed_schema, a2ui_dynamic_schema, a2ui_advanced,
// a2ui_recovery), written as our own code from what
// shared/docs/dojo.md says each answers: the planner's generate_a2ui, the
// sub-agent's forced render_a2ui by the user's words, the fixed-schema
// search tools, and the recovery pages' invalid-then-valid surfaces.

import { textOf } from "./aimock.mjs";

const dynamicCatalog = "https://a2ui.org/demos/dojo/dynamic_catalog.json";

const userTexts = (req) => req.messages.filter((m) => m.role === "user").map((m) => textOf(m.content));
const lastUserText = (req) => userTexts(req).at(-1) ?? "";
const allText = (req) => req.messages.map((m) => textOf(m.content)).join("\n");
const offers = (req, name) => (req.tools ?? []).some((t) => t.function?.name === name);
const lastIsTool = (req) => req.messages.at(-1)?.role === "tool";
const call = (name, args) => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

// The planner sees generate_a2ui; the sub-agent sees render_a2ui alone.
const planner = (req) => !lastIsTool(req) && offers(req, "generate_a2ui");
const subAgent = (req) => offers(req, "render_a2ui") && !offers(req, "generate_a2ui");

// A row repeating one card over the data model's items.
const cards = (surfaceId, card, bindings, items) => ({
  surfaceId,
  catalogId: dynamicCatalog,
  components: [
    { id: "root", component: "Row", children: { componentId: "card", path: "/items" } },
    { id: "card", component: card, ...Object.fromEntries(bindings.map((b) => [b, { path: b }])) },
  ],
  data: { items },
});

export const hotels = [
  { name: "The Ritz", price: "$450/night", rating: 4.8 },
  { name: "Holiday Inn", price: "$180/night", rating: 3.5 },
  { name: "Boutique Loft", price: "$320/night", rating: 4.2 },
];
const products = [
  { name: "Sony WH-1000XM5", price: "$349" },
  { name: "AirPods Max", price: "$549" },
  { name: "Bose QC Ultra", price: "$429" },
];
const team = [
  { name: "Alice Chen", role: "Engineering Lead" },
  { name: "Bob Martinez", role: "Product Designer" },
  { name: "Carol Davis", role: "Software Engineer" },
  { name: "Dan Wilson", role: "Data Scientist" },
];

export const flights = [
  { id: "1", airline: "United Airlines", flightNumber: "UA 123", origin: "SFO", destination: "JFK", date: "Tue, Apr 8", departureTime: "8:00 AM", arrivalTime: "4:30 PM", duration: "5h 30m", status: "On Time", price: "$289" },
  { id: "2", airline: "Delta", flightNumber: "DL 456", origin: "SFO", destination: "JFK", date: "Tue, Apr 8", departureTime: "10:00 AM", arrivalTime: "6:45 PM", duration: "5h 45m", status: "On Time", price: "$315" },
];
export const fixedHotels = [
  { id: "1", name: "The Manhattan Grand", location: "Downtown Manhattan", rating: 4.5, price: "$350" },
  { id: "2", name: "Downtown Boutique Hotel", location: "SoHo", rating: 4.0, price: "$280" },
];

// The recovery pages' surfaces: the broken one's root repeats a card no
// component defines; the valid one names no catalog (the server's
// default applies).
const brokenSurface = { surfaceId: "hotel-comparison", components: [{ id: "root", component: "Row", children: { componentId: "card", path: "/items" } }], data: { items: hotels } };
const { catalogId: _, ...validSurface } = cards("hotel-comparison", "HotelCard", ["name", "price", "rating"], hotels);

export function a2uiPredicates() {
  return [
    // a2ui_fixed_schema: the search tools, by the user's words.
    { match: { predicate: (req) => !lastIsTool(req) && offers(req, "search_flights") && lastUserText(req).toLowerCase().includes("flights") }, response: call("search_flights", { flights }) },
    { match: { predicate: (req) => !lastIsTool(req) && offers(req, "search_hotels") && lastUserText(req).toLowerCase().includes("hotels") }, response: call("search_hotels", { hotels: fixedHotels }) },
    // a2ui_recovery, planner: luxury (not across cities) or broken.
    {
      match: { predicate: (req) => planner(req) && ((/luxury/i.test(lastUserText(req)) && !/different cities/i.test(lastUserText(req))) || userTexts(req).some((t) => /broken/i.test(t))) },
      response: call("generate_a2ui", { intent: "create" }),
    },
    // a2ui_recovery, sub-agent: broken stays invalid; luxury is valid
    // once the retry prompt says what was wrong.
    { match: { predicate: (req) => subAgent(req) && /broken/i.test(allText(req)) }, response: call("render_a2ui", brokenSurface) },
    {
      match: { predicate: (req) => subAgent(req) && /luxury/i.test(allText(req)) },
      response: (req) => call("render_a2ui", allText(req).includes("Previous attempt was invalid") ? validSurface : brokenSurface),
    },
    // a2ui_dynamic_schema and a2ui_advanced.
    { match: { predicate: planner }, response: call("generate_a2ui", {}) },
    { match: { predicate: (req) => subAgent(req) && lastUserText(req).includes("hotel") }, response: call("render_a2ui", cards("hotel-comparison", "HotelCard", ["name", "price", "rating"], hotels)) },
    { match: { predicate: (req) => subAgent(req) && lastUserText(req).includes("product") }, response: call("render_a2ui", cards("product-comparison", "ProductCard", ["name", "price"], products)) },
    { match: { predicate: (req) => subAgent(req) && lastUserText(req).includes("team") }, response: call("render_a2ui", cards("team-roster", "TeamMemberCard", ["name", "role"], team)) },
  ];
}
