package main

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
)

// feature is one Dojo feature served at base + "/" + name.
type feature struct {
	name string
	// register mounts the feature's agent on g at path with opts.
	register func(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error
}

// features are the Dojo features this server serves, at the paths the
// Dojo's agents.ts maps for the ag-ui .NET integration (v1_agentic_chat
// is the Dojo's second page on /agentic_chat), and for the features that
// integration lacks, at their feature names (as it maps them for
// Mastra, for background_agents and observational_memory, and for
// LangGraph, for subgraphs). Frontend
// tools, context and state come from each page's input; the agents here
// add the server's own tools and state. Background work runs on bg.
func features(bg *loop.Background, researchStep time.Duration) []feature {
	return []feature{
		{"agentic_chat", chat("You are a helpful assistant. Use the page's tools when the user asks for what they do.")},
		{"backend_tool_rendering", registerWeather},
		{"human_in_the_loop", chat("You are a planning assistant. When the user asks for a task, call generate_task_steps with the steps, and wait for the user's choice.")},
		{"agentic_generative_ui", registerPlan},
		{"shared_state", registerRecipe},
		{"predictive_state_updates", registerDocument},
		{"tool_based_generative_ui", chat("You write haiku. Call generate_haiku with three Japanese lines, their English translation, an image name and a CSS gradient.")},
		{"agentic_chat_reasoning", chat("You are a helpful assistant. Think the question through before answering.")},
		{"agentic_chat_multimodal", chat("You are a helpful assistant. Describe and analyze the images and documents the user shares.")},
		{"interrupt", registerMeeting},
		{"subgraphs", registerTravel},
		{"a2ui_fixed_schema", registerFixedSchema},
		{"a2ui_dynamic_schema", generative(generativeInstructions)},
		{"a2ui_advanced", generative(generativeInstructions)},
		{"a2ui_recovery", generative(generativeInstructions)},
		{"background_agents", registerResearch(bg, researchStep)},
		{"observational_memory", registerMemory(memoryTokens)},
	}
}

// newRouter mounts every feature under base; their background work runs
// on bg, which the caller shuts down after the server.
func newRouter(base string, provider loop.Provider, bg *loop.Background, researchStep time.Duration, opts ...core.HandlerOption) (*gin.Engine, error) {
	r := gin.New()
	r.Use(gin.Recovery())
	g := r.Group(base)
	for _, f := range features(bg, researchStep) {
		if err := f.register(g, "/"+f.name, provider, append(opts[:len(opts):len(opts)], core.WithAgentName(f.name))); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// chat is a feature whose only tools are the page's (frontend tools):
// the loop offers them to the model, and a call to one ends the run for
// the page to run it, or to ask the user, and send its result with the
// next run.
func chat(instructions string) func(*gin.RouterGroup, string, loop.Provider, []core.HandlerOption) error {
	return func(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
		a, err := loop.New(provider, loop.WithInstructions(instructions))
		if err != nil {
			return err
		}
		return ginagui.Register(g, path, a, opts...)
	}
}
