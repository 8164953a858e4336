package eino

import (
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/cloudwego/eino/adk"
)

// State is the shared state of an [Agent]: the eino run's session values
// (adk.AddSessionValue, a ChatModelAgent's OutputKey), as the client sees
// them.
type State = map[string]any

// Agent serves an eino ADK agent as a [core.Agent]: each AG-UI run is one
// adk.Runner run (or resume) of it, its events translated to AG-UI events
// as the package doc lists. It is safe for concurrent use: every run has
// its own Runner.
type Agent struct {
	agent adk.Agent
	store adk.CheckPointStore
	opts  []adk.AgentRunOption
}

var _ core.Agent[State] = (*Agent)(nil)

// AgentOption configures an [Agent]; options are applied once, by
// [NewAgent].
type AgentOption func(*Agent) error

// WithCheckPointStore sets the store the runner saves an interrupted run
// to, under its thread id (and the request's principal, when the route
// names one), and resumes it from (default: none, and a run
// that interrupts ends with RUN_ERROR [CodeCheckPointFailed]). Use
// [NewCheckPointStore] over a shared KV so that any replica resumes.
func WithCheckPointStore(s adk.CheckPointStore) AgentOption {
	return func(a *Agent) error {
		if s == nil {
			return errors.New("eino: WithCheckPointStore: nil store")
		}
		a.store = s
		return nil
	}
}

// WithRunOptions adds options given to every Runner.Run and Resume, such
// as adk.WithChatModelOptions (default: none).
func WithRunOptions(opts ...adk.AgentRunOption) AgentOption {
	return func(a *Agent) error {
		a.opts = append(a.opts, opts...)
		return nil
	}
}

// NewAgent returns agent as a core.Agent.
func NewAgent(agent adk.Agent, opts ...AgentOption) (*Agent, error) {
	if agent == nil {
		return nil, errors.New("eino: NewAgent: nil agent")
	}
	a := &Agent{agent: agent}
	for _, o := range opts {
		if err := o(a); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Run implements [core.Agent]. An input with a resume continues the
// thread's checkpoint with Runner.ResumeWithParams, each entry's
// interrupt id a target whose data is the [agui.ResumeEntry] itself (read
// it in a tool with tool.GetResumeContext[agui.ResumeEntry]); any other
// input starts Runner.Run with the input's messages. Either way the
// input's state is given as session values, and ctx reaches the runner.
// A run that succeeds empties its thread's checkpoint, so that a stale
// resume fails with [CodeCheckPointFailed] instead of running the paused
// tools again.
func (a *Agent) Run(ctx context.Context, rc *core.RunContext[State]) (agui.Outcome, error) {
	in := rc.Input()
	session := new(sessionBox)
	runner := adk.NewRunner(ctx, adk.RunnerConfig{
		Agent:           &rooted{Agent: a.agent, session: session},
		EnableStreaming: true,
		CheckPointStore: a.store,
	})
	cpID := checkPointID(ctx, in.ThreadID)
	opts := []adk.AgentRunOption{adk.WithSessionValues(rc.State())}
	if a.store != nil {
		opts = append(opts, adk.WithCheckPointID(cpID))
	}
	opts = append(opts, a.opts...)

	var events *adk.AsyncIterator[*adk.AgentEvent]
	if len(in.Resume) > 0 {
		if a.store == nil {
			return agui.Outcome{}, checkpointError("the run has a resume but the agent keeps no checkpoints", nil)
		}
		targets := make(map[string]any, len(in.Resume))
		for _, e := range in.Resume {
			targets[e.InterruptID] = e
		}
		it, err := runner.ResumeWithParams(ctx, cpID, &adk.ResumeParams{Targets: targets}, opts...)
		if err != nil {
			return agui.Outcome{}, checkpointError("the thread's checkpoint could not be resumed", err)
		}
		events = it
	} else {
		msgs, err := messages(in.Messages)
		if err != nil {
			return agui.Outcome{}, err
		}
		events = runner.Run(ctx, msgs, opts...)
	}
	t := &translator{rc: rc, session: session, calls: map[string]*core.ToolCallHandle{}, earlier: earlierCalls(in.Messages)}
	t.published = t.stateJSON(rc.State())
	out, err := t.consume(events, a.store != nil)
	if err == nil && out.Type == agui.OutcomeSuccess && a.store != nil {
		// The thread is no longer paused: a resume naming its old
		// interrupts must not run the paused tools a second time. eino's
		// store has no delete; an empty checkpoint reads as none.
		if err := a.store.Set(ctx, cpID, nil); err != nil {
			return agui.Outcome{}, checkpointError("the thread's checkpoint could not be cleared", err)
		}
	}
	return out, err
}

// checkPointID is the id of a run's checkpoint: its thread id, under the
// request's principal when the route names one ([core.WithPrincipal]), so
// that a principal who learns another's thread id can neither resume nor
// clear that thread's paused run: its runs see a checkpoint of their own.
// The principal is length-prefixed, so no pair of principal and thread id
// reads as another.
func checkPointID(ctx context.Context, threadID string) string {
	p, ok := core.PrincipalFrom(ctx)
	if !ok || p == "" {
		return threadID
	}
	return strconv.Itoa(len(p)) + ":" + p + ":" + threadID
}

// sessionBox holds the context of the root agent's run, from which the
// session's values are read; eino keeps them nowhere else a caller can
// reach. It is safe for concurrent use.
type sessionBox struct {
	mu  sync.Mutex
	ctx context.Context
}

func (b *sessionBox) set(ctx context.Context) {
	b.mu.Lock()
	b.ctx = ctx
	b.mu.Unlock()
}

// values returns the session's values, nil before the run started.
func (b *sessionBox) values() map[string]any {
	b.mu.Lock()
	ctx := b.ctx
	b.mu.Unlock()
	if ctx == nil {
		return nil
	}
	return adk.GetSessionValues(ctx)
}

// rooted is the agent given to the runner: the user's agent, with the
// run's context noted on the way in so that session values can be read.
// It passes Run and Resume through unchanged.
type rooted struct {
	adk.Agent
	session *sessionBox
}

func (r *rooted) Run(ctx context.Context, in *adk.AgentInput, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	r.session.set(ctx)
	return r.Agent.Run(ctx, in, opts...)
}

func (r *rooted) Resume(ctx context.Context, info *adk.ResumeInfo, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	r.session.set(ctx)
	ra, ok := r.Agent.(adk.ResumableAgent)
	if !ok {
		it, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
		gen.Send(&adk.AgentEvent{Err: errors.New("eino: the agent is not an adk.ResumableAgent")})
		gen.Close()
		return it
	}
	return ra.Resume(ctx, info, opts...)
}
