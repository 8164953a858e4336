package main

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// about is what a route tells a first-time user in its capabilities: a
// description (identity.description) and prompts worth trying. AG-UI's
// capabilities have no field for suggested prompts, so they go in the
// schema's extension object, custom, as "suggestions" (see
// [suggestionsKey]). A plain value.
type about struct {
	description string
	suggestions []suggestion
}

// suggestion is one suggested prompt: a short title for the button and the
// message it sends, the shape CopilotKit gives its chat suggestions.
type suggestion struct {
	Title   string `json:"title"`
	Message string `json:"message"`
}

// suggestionsKey is the key of capabilities.custom that lists a route's
// suggested prompts; the chat page reads it.
const suggestionsKey = "suggestions"

// abouts describes every agent route by its full path. A route missing
// here serves only its default capabilities (TestEveryRouteIsDescribed).
func abouts() map[string]about {
	return map[string]about{
		"/agents/echo": info("Streams your message back word by word: the smallest agent there is.",
			say("Say hello", "Hello, agents!"), say("A longer line", "Streams arrive one word at a time.")),
		"/agents/private/echo": info("The echo agent behind a bearer token (Authorization: Bearer demo).",
			say("Say hello", "Hello from behind the token.")),
		"/agents/editor": info("Reasons, streams a reply and publishes a draft as shared state.",
			say("Draft a plan", "Draft the Q3 plan.")),
		"/agents/remote": info("An agent elsewhere (by default this app's editor) behind this route, its events passed through and verified again.",
			say("Draft a plan", "Draft the Q3 plan, remotely.")),
		"/agents/flaky": info("Starts to answer, then its backend fails: the run ends with RUN_ERROR.",
			say("Check the weather", "What's the weather in Oslo?")),
		"/agents/approver": info("Asks your approval before it deletes everything (human in the loop); Approve or Reject answers on a new run.",
			say("Clean up", "Delete everything, please.")),
		"/agents/supervisor": info("Delegates to a planner subagent with a nested estimator, then answers; subagents shown as emitted.",
			say("Plan a project", "Plan the launch and estimate it.")),
		"/agents/compat/supervisor": info("The supervisor with its subagents inline, as a client older than subagent support sees them.",
			say("Plan a project", "Plan the launch and estimate it.")),
		"/agents/hidden/supervisor": info("The supervisor with its subagents hidden: only its own answer.",
			say("Plan a project", "Plan the launch and estimate it.")),
		"/agents/tools": info("Calls a search tool, whose result becomes shared state, and an internal tool the route hides.",
			say("Search", "Find the quarterly plans.")),
		"/agents/slow": info("One delta every 50 ms for a minute: try Stop, or closing the tab.",
			say("Count", "Count for me, slowly.")),
		"/agents/detached": info("The slow agent on a resumable route: a dropped connection rejoins the run where it left off.",
			say("Count", "Count for me; I may lose my connection.")),
		"/agents/users/detached": info("The resumable slow agent behind a demo login (Bearer alice-token or bob-token).",
			say("Count", "Count for me.")),
		"/agents/loop": info("The agent loop: checks the weather and books a trip, which waits for your approval.",
			say("Plan a trip", "Plan a weekend in Oslo."), say("Book a hotel", "Book two nights in Bergen.")),
		"/agents/mcp": info("The agent loop on the tools of an MCP server: converts a temperature.",
			say("Convert", "What is 21°C in Fahrenheit?")),
		"/agents/frontend": info("Calls the tools your page offers (frontend tools): here it sets the page's theme colour.",
			say("Change the colour", "Make the page teal, please.")),
		"/agents/a2ui": info("Paints a generative UI surface (A2UI v0.9): a trip card with buttons; a click goes back to the agent.",
			say("Show a trip", "Show me a weekend trip."), say("Another trip", "Suggest a trip to the coast.")),
		"/agents/plan": info("Plans a task and works through it: the steps show as a progress list that updates as each is done.",
			say("Plan a trip", "Plan a weekend in Oslo."), say("Organise a move", "Help me organise a move.")),
	}
}

// info is a route's about.
func info(description string, suggestions ...suggestion) about {
	return about{description: description, suggestions: suggestions}
}

// say is a suggestion.
func say(title, message string) suggestion { return suggestion{Title: title, Message: message} }

// describe returns the capabilities of the agent route at route with state
// type S: the defaults ([core.DefaultCapabilities]) plus the route's
// description and suggestions from [abouts].
func describe[S any](route string) core.HandlerOption {
	caps := core.DefaultCapabilities[S]()
	if d, ok := abouts()[route]; ok {
		caps.Identity = &agui.IdentityCapabilities{Name: strings.TrimPrefix(route, "/agents/"), Description: d.description}
		caps.Custom = map[string]any{suggestionsKey: d.suggestions}
	}
	return core.WithCapabilities(caps)
}

// register is ginagui.Register with the route's capabilities
// ([describe]).
func register[S any](g *gin.RouterGroup, path string, a core.Agent[S], opts ...core.HandlerOption) error {
	return ginagui.Register(g, path, a, append(opts, describe[S](g.BasePath()+path))...)
}
