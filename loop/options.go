package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/agui-go/agui"
)

// Call is one tool call as hooks see it: a plain value; hooks must not
// modify Args.
type Call struct {
	// ID is the model's id for the call; use it as an idempotency key, since
	// a call running when its process died runs again on recovery.
	ID   string
	Name string
	Args json.RawMessage
	// Index is the call's position in its model turn.
	Index int
}

// Option configures an [Agent].
type Option func(*config) error

type config struct {
	maxSteps      int
	concurrency   int
	maxDepth      int
	lease         time.Duration
	instructions  string
	tools         []Tool
	toolSets      []ToolSet
	onToolCall    func(ctx context.Context, c Call)
	preToolCall   func(ctx context.Context, c Call) error
	needsApproval func(c Call) bool
	store         Store

	// The hooks that shape calls (hooks.go).
	beforeToolCall  func(ctx context.Context, c Call) (CallVerdict, error)
	afterToolCall   func(ctx context.Context, c Call, r CallResult) (CallResult, error)
	beforeModelCall func(ctx context.Context, req ModelRequest) (ModelRequest, error)
	// approvalTimeout: see approvaledit.go.
	approvalTimeout time.Duration
	// noAdopt turns off taking a client's history as the transcript of
	// an unknown thread (see [WithAdoptHistory]).
	noAdopt bool
	// langGraph pauses in LangGraph's dialect (see
	// [WithLangGraphInterrupts]).
	langGraph bool
	// renderState renders the shared state and the client's context
	// for the model (see [WithRenderContext]).
	renderState func(state json.RawMessage, items []agui.ContextItem) string
	// predict maps tool names to the argument fields mirrored into state
	// (see [WithPredictState]).
	predict       map[string]map[string]string
	settings      ModelSettings
	output        *output
	maxTranscript int
	// observer is the agent's observational memory (nil: none; see
	// observe.go).
	observer *Observer
	// toolTimeout bounds each tool call (see [WithToolTimeout]).
	toolTimeout time.Duration
	// titleTimeout, when positive, names threads (see [WithTitles]).
	titleTimeout time.Duration
	// logger receives the full text of tool errors (see WithLogger).
	logger *slog.Logger
	// busy is what a run does when another run holds its thread, and
	// busyWait how long it waits for it (busy.go).
	busy     BusyStrategy
	busyWait time.Duration
	// now is the process's clock, which only measures time elapsed in a
	// run (see storeClock); tests skew it to stand for a replica whose
	// clock disagrees with the others'.
	now func() time.Time
}

func defaults() config {
	return config{maxSteps: 10, concurrency: 4, maxDepth: 3, lease: 5 * time.Minute, busyWait: DefaultBusyWait, now: time.Now}
}

// WithMaxSteps caps the model turns of one run (default 10). A run that
// reaches it ends successfully with [FinishMaxSteps].
func WithMaxSteps(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("loop: WithMaxSteps %d: must be at least 1", n)
		}
		c.maxSteps = n
		return nil
	}
}

// WithToolConcurrency caps the tool calls of one turn in flight (default 4);
// 1 runs them one after another.
func WithToolConcurrency(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("loop: WithToolConcurrency %d: must be at least 1", n)
		}
		c.concurrency = n
		return nil
	}
}

// WithMaxDelegationDepth caps how deep delegated runs nest (default 3): a
// delegation below it fails the whole run with [CodeDepth]. It bounds
// nesting, not fan-out (see [Delegate]).
func WithMaxDelegationDepth(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("loop: WithMaxDelegationDepth %d: must be at least 1", n)
		}
		c.maxDepth = n
		return nil
	}
}

// WithLease is how long a run's claim on its thread lasts unless renewed
// (default 5 minutes). A run renews it every third of that while it waits
// on the model or its tools, so it runs out when its holder died (or spent
// longer than the lease in a hook or a store call): another run may then
// take the thread over, and runs the calls that had no result again (a
// client retrying the resume that the dead run had claimed is accepted,
// and the recorded decision is acted on). A run
// whose renewal fails has lost its thread: it starts no new call and fails
// with THREAD_BUSY. A run that ends releases its thread.
func WithLease(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("loop: Lease %v: must be positive", d)
		}
		c.lease = d
		return nil
	}
}

// WithInstructions sets the system prompt (default none).
func WithInstructions(s string) Option {
	return func(c *config) error { c.instructions = s; return nil }
}

// WithTools adds tools (default none). Names must be unique.
func WithTools(ts ...Tool) Option {
	return func(c *config) error {
		for _, t := range ts {
			if t.fn == nil {
				return errors.New("loop: Tools: zero Tool (build tools with NewTool or RawTool)")
			}
		}
		c.tools = append(c.tools, ts...)
		return nil
	}
}

// WithOnToolCall is called just before each call's gate, one call at a time
// (default none).
func WithOnToolCall(f func(ctx context.Context, c Call)) Option {
	return func(c *config) error { c.onToolCall = f; return nil }
}

// WithPreToolCall is called after argument validation, just before a call
// would start, one call at a time (default none). An error stops the
// batch: no new call starts, running ones finish, and the run fails with
// it.
func WithPreToolCall(f func(ctx context.Context, c Call) error) Option {
	return func(c *config) error { c.preToolCall = f; return nil }
}

// WithNeedsApproval decides, just before a call would start, whether it waits
// for the user's approval (default: no call does). The first call that
// needs it pauses the run.
func WithNeedsApproval(f func(c Call) bool) Option {
	return func(c *config) error { c.needsApproval = f; return nil }
}

// WithCheckpoints sets where thread checkpoints are kept (default a new
// [MemoryStore] per [Agent]).
func WithCheckpoints(s Store) Option {
	return func(c *config) error {
		if s == nil {
			return errors.New("loop: WithCheckpoints: nil store")
		}
		c.store = s
		return nil
	}
}
