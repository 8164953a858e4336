package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
)

// The activity types the Dojo's pages register their cards under: they
// name Mastra, whose bridge served these pages first.
const (
	taskActivity   = "mastra-background-task"
	memoryActivity = "mastra-observational-memory"
)

// researchSteps is how many steps a deep-research job takes.
const researchSteps = 5

// memoryTokens is observational_memory's threshold, deliberately low (as
// the Dojo's own agent has it) so that a cycle runs within a few turns.
const memoryTokens = 150

// research is run_deep_research's result, the fields the page's card
// shows once the task completed.
type research struct {
	Topic   string `json:"topic"`
	Summary string `json:"summary"`
	Sources int    `json:"sources"`
}

// registerResearch serves background_agents: run_deep_research(topic) is
// a background tool (loop.NewBackgroundTool) owned by bg. Its call
// answers at once, the page draws the task's activity as a Background
// Task card, running while the turn lasts, and the result (the card
// completed, and the findings for the model) arrives with the thread's
// next run. Each step of the job takes step.
func registerResearch(bg *loop.Background, step time.Duration) func(*gin.RouterGroup, string, loop.Provider, []core.HandlerOption) error {
	return func(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
		type in struct {
			Topic string `json:"topic" jsonschema:"the topic to research"`
		}
		tool, err := loop.NewBackgroundTool(bg, "run_deep_research",
			"Runs a long deep-research job on a topic. It runs in the background and reports progress while the conversation goes on. "+
				"Use it whenever the user asks to research, investigate or dig into a topic.",
			func(ctx context.Context, in in) (research, error) {
				for i := range researchSteps {
					t := time.NewTimer(step)
					select {
					case <-t.C:
					case <-ctx.Done():
						t.Stop()
						return research{}, ctx.Err()
					}
					if err := loop.TaskOutput(ctx, map[string]any{"step": i + 1, "of": researchSteps}); err != nil {
						return research{}, err
					}
				}
				// A fixed finding: the demo is the detached work, not the research.
				return research{Topic: in.Topic, Sources: 7,
					Summary: fmt.Sprintf("Completed a deep-research pass on %q: gathered findings, cross-checked sources and wrote a summary.", in.Topic)}, nil
			})
		if err != nil {
			return err
		}
		a, err := loop.New(provider, loop.WithTools(tool), loop.WithInstructions(
			"You are a research assistant that dispatches long-running work as background tasks. "+
				"When the user asks you to research, investigate or look into a topic, call run_deep_research with the topic, "+
				"then tell the user briefly that the research runs in the background and the findings come shortly. "+
				"Never invent findings: they arrive later, as a system message."))
		if err != nil {
			return err
		}
		if err := ginagui.Register(g, path, a, opts...); err != nil {
			return err
		}
		// How many tasks are running or delivering their results: test/dojo
		// waits for 0 before it asks for the findings.
		g.GET(path+"/tasks", func(c *gin.Context) { c.JSON(200, gin.H{"tasks": bg.Len()}) })
		return nil
	}
}

// registerMemory serves observational_memory: the agent chats, and once
// the thread's older messages pass tokens (estimated), a cycle of
// loop.Observer compresses them into observations the model reads in
// their place; the page draws each cycle as an Observational Memory card.
func registerMemory(tokens int) func(*gin.RouterGroup, string, loop.Provider, []core.HandlerOption) error {
	return func(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
		o, err := loop.NewObserver(provider, loop.WithObserveTokens(tokens), loop.WithObservationActivityType(memoryActivity))
		if err != nil {
			return err
		}
		a, err := loop.New(provider, loop.WithObserver(o), loop.WithInstructions(
			"You are a friendly assistant with long-term observational memory. Chat naturally; "+
				"your memory compresses older turns into observations by itself. Keep your replies short."))
		if err != nil {
			return err
		}
		return ginagui.Register(g, path, a, opts...)
	}
}
