package core_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Draft is state the client mirrors and the agent updates.
type Draft struct {
	Revision int    `json:"revision"`
	Title    string `json:"title"`
}

// The Editor: a step brackets the run's phase; a reasoning
// block, a streamed message and a state update happen inside it. Deferred
// End closes the step on every path.
func Example() {
	editor := core.AgentFunc[Draft](func(ctx context.Context, rc *core.RunContext[Draft]) (agui.Outcome, error) {
		step, err := rc.Step("draft")
		if err != nil {
			return agui.Outcome{}, err
		}
		defer step.End()

		if err := rc.Think("The user wants a title."); err != nil {
			return agui.Outcome{}, err
		}

		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := m.Delta("Naming it "); err != nil {
			return agui.Outcome{}, err
		}
		if err := m.Delta(`"Q3 plan".`); err != nil {
			return agui.Outcome{}, err
		}
		if err := m.End(); err != nil {
			return agui.Outcome{}, err
		}

		err = rc.UpdateState(func(d *Draft) {
			d.Revision++
			d.Title = "Q3 plan"
		})
		return agui.Success(), err
	})

	for ev, err := range core.Run(context.Background(), editor, agui.NewInput("thread-1", "run-1")) {
		if err != nil {
			panic(err)
		}
		fmt.Println(ev.Type())
	}
	// Output:
	// RUN_STARTED
	// STEP_STARTED
	// REASONING_START
	// REASONING_MESSAGE_START
	// REASONING_MESSAGE_CONTENT
	// REASONING_MESSAGE_END
	// REASONING_END
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT
	// TEXT_MESSAGE_CONTENT
	// TEXT_MESSAGE_END
	// STATE_SNAPSHOT
	// STEP_FINISHED
	// RUN_FINISHED
}

// The Approver: the first run pauses on an interrupt; the
// client answers in the next run's resume, and the agent goes on.
func Example_interrupt() {
	approver := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		answer, ok := rc.ResumeFor("delete-everything")
		switch {
		case !ok:
			return agui.Interrupted(agui.NewInterrupt("delete-everything", "tool_approval")), nil
		case answer.Status == agui.ResumeResolved:
			return agui.Success(), rc.Say("Done.")
		default:
			return agui.Success(), rc.Say("Cancelled.")
		}
	})

	show := func(in *agui.RunAgentInput) {
		for ev := range core.Run(context.Background(), approver, in) {
			switch ev := ev.(type) {
			case *agui.TextMessageContent:
				fmt.Println("said:", ev.Delta)
			case *agui.RunFinished:
				fmt.Print("outcome: ", ev.Outcome.Type)
				for _, i := range ev.Outcome.Interrupts {
					fmt.Print(" ", i.ID, " (", i.Reason, ")")
				}
				fmt.Println()
			}
		}
	}

	show(agui.NewInput("thread-1", "run-1"))

	resumed := agui.NewInput("thread-1", "run-2")
	resumed.Resume = []agui.ResumeEntry{{InterruptID: "delete-everything", Status: agui.ResumeResolved}}
	show(resumed)

	declined := agui.NewInput("thread-1", "run-3")
	declined.Resume = []agui.ResumeEntry{{InterruptID: "delete-everything", Status: agui.ResumeCancelled}}
	show(declined)
	// Output:
	// outcome: interrupt delete-everything (tool_approval)
	// said: Done.
	// outcome: success
	// said: Cancelled.
	// outcome: success
}

// The Supervisor: a subagent, a subagent nested in it, and the
// parent's own message. Every event is attributed to the invocation that
// emitted it.
func Example_subagents() {
	supervisor := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		planner, err := rc.Subagent("planner")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := planner.Say("Two tasks: scope, then risks."); err != nil {
			return agui.Outcome{}, err
		}
		estimator, err := planner.Subagent("estimator") // nested
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := estimator.Say("About a day each."); err != nil {
			return agui.Outcome{}, err
		}
		if err := estimator.Finish(nil); err != nil {
			return agui.Outcome{}, err
		}
		if err := planner.Finish(map[string]int{"tasks": 2}); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), rc.Say("Plan ready.") // the parent's own
	})

	names := map[string]string{"": "supervisor"}
	for ev := range core.Run(context.Background(), supervisor, agui.NewInput("t", "r")) {
		switch ev := ev.(type) {
		case *agui.SubagentStarted:
			names[ev.SubagentRunID] = ev.Name
			fmt.Printf("%s %s (parent %s)\n", ev.Type(), ev.Name, names[ev.ParentSubagentRunID])
		case *agui.SubagentFinished:
			fmt.Printf("%s %s result=%v\n", ev.Type(), names[ev.SubagentRunID], ev.Result)
		case *agui.TextMessageContent:
			fmt.Printf("%s %s: %s\n", ev.Type(), names[agui.SubagentOf(ev)], ev.Delta)
		}
	}
	// Output:
	// SUBAGENT_STARTED planner (parent supervisor)
	// TEXT_MESSAGE_CONTENT planner: Two tasks: scope, then risks.
	// SUBAGENT_STARTED estimator (parent planner)
	// TEXT_MESSAGE_CONTENT estimator: About a day each.
	// SUBAGENT_FINISHED estimator result=<nil>
	// SUBAGENT_FINISHED planner result=map[tasks:2]
	// TEXT_MESSAGE_CONTENT supervisor: Plan ready.
}

// Flaky: an error the agent returns ends the run with
// RUN_ERROR, carrying its message and code.
func ExampleAgentError() {
	flaky := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("Looking that up."); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Outcome{}, agui.AgentError(errors.New("the weather service is down"))
	})

	var end agui.Event
	for ev := range core.Run(context.Background(), flaky, agui.NewInput("t", "r")) {
		end = ev
	}
	e := end.(*agui.RunError)
	fmt.Println(e.Message)
	fmt.Println(e.Code)
	// Output:
	// agent error: the weather service is down
	// AGENT_ERROR
}

// Chatty: once the run is cancelled every emit fails, so
// the agent's next `return err` unwinds it, and the terminal RUN_ERROR
// still goes out. The transport's side of this is Runner.Cancel, taken
// before the stream starts.
func ExampleRunner_Cancel() {
	var runner *core.Runner[core.NoState]
	chatty := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("one"); err != nil {
			return agui.Outcome{}, err
		}
		// Standing in for the transport noticing the client hung up.
		runner.Cancel(errors.New("client hung up"))
		if err := rc.Say("two"); err != nil {
			return agui.Outcome{}, err // CANCELLED: returns here
		}
		if err := rc.Say("three"); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})

	runner, err := core.NewRunner(chatty, agui.NewInput("t", "r"))
	if err != nil {
		panic(err)
	}
	var said []string
	var end agui.Event
	for ev := range runner.Events(context.Background()) {
		if c, ok := ev.(*agui.TextMessageContent); ok {
			said = append(said, c.Delta)
		}
		end = ev
	}
	fmt.Println(said)
	fmt.Println(end.Type(), end.(*agui.RunError).Code)
	// Output:
	// [one]
	// RUN_ERROR CANCELLED
}

// Slow: Go needs no until_cancelled. The agent passes ctx to
// the model call, which selects on ctx.Done(); cancelling the run stops the
// call in flight.
func ExampleRunner_Events() {
	// model stands in for a model client. A call answers with reply, or
	// gives up when ctx is cancelled; inFlight is closed once it waits.
	type model struct {
		reply    chan string
		inFlight chan struct{}
	}
	call := func(ctx context.Context, m model) (string, error) {
		close(m.inFlight)
		select {
		case r := <-m.reply:
			return r, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	slow := func(m model) core.Agent[core.NoState] {
		return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
			reply, err := call(ctx, m)
			if err != nil {
				return agui.Outcome{}, err
			}
			return agui.Success(), rc.Say(reply)
		})
	}

	// A model that answers.
	answers := model{reply: make(chan string, 1), inFlight: make(chan struct{})}
	answers.reply <- "the model's reply"
	for ev := range core.Run(context.Background(), slow(answers), agui.NewInput("t", "r1")) {
		if c, ok := ev.(*agui.TextMessageContent); ok {
			fmt.Println("said:", c.Delta)
		}
	}

	// A model that never answers, in a run the transport cancels while the
	// call is in flight.
	silent := model{reply: nil, inFlight: make(chan struct{})}
	runner, err := core.NewRunner(slow(silent), agui.NewInput("t", "r2"))
	if err != nil {
		panic(err)
	}
	for ev := range runner.Events(context.Background()) {
		if ev.Type() == agui.TypeRunStarted {
			<-silent.inFlight
			runner.Cancel(errors.New("the client went away"))
		}
		if e, ok := ev.(*agui.RunError); ok {
			fmt.Println(e.Type(), e.Code)
		}
	}
	// Output:
	// said: the model's reply
	// RUN_ERROR CANCELLED
}

// UpdateState publishes what changed against the state the client sent:
// here a one-field change of a larger state goes out as a STATE_DELTA,
// and the key the agent's type does not model is left alone.
func ExampleRunContext_UpdateState() {
	type Progress struct {
		Done  int `json:"done"`
		Total int `json:"total"`
	}
	in := agui.NewInput("t", "r")
	in.State = json.RawMessage(`{"done":1,"total":3,"notes":"the client's own key, which Progress does not model"}`)

	worker := core.AgentFunc[Progress](func(ctx context.Context, rc *core.RunContext[Progress]) (agui.Outcome, error) {
		fmt.Println("starting from", rc.State())
		return agui.Success(), rc.UpdateState(func(p *Progress) { p.Done++ })
	})
	for ev := range core.Run(context.Background(), worker, in) {
		if d, ok := ev.(*agui.StateDelta); ok {
			for _, op := range d.Delta {
				fmt.Println(op.Op, op.Path, op.Value)
			}
		}
	}
	// Output:
	// starting from {1 3}
	// replace /done 2
}
