package main

import (
	"context"
	"sync"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// approvalID names the one interrupt the approver waits on.
const approvalID = "delete-everything"

// codeUnknownInterrupt is the RUN_ERROR code of a resume that answers no
// interrupt the approver raised on the thread: an unknown interrupt id,
// or one it never raised there. Its value never changes.
const codeUnknownInterrupt agui.Code = "UNKNOWN_INTERRUPT"

// maxApprovalThreads bounds the threads the approver remembers an open
// interrupt for; past it the oldest is forgotten (its resume is then
// refused, and the client asks again).
const maxApprovalThreads = 4096

// raised remembers, per thread, that the approver raised its interrupt
// there, so that a resume is acted on only when it answers one. Safe for
// concurrent use; bounded by max.
type raised struct {
	mu      sync.Mutex
	max     int
	threads map[string]bool
	order   []string // oldest first
}

func newRaised(max int) *raised { return &raised{max: max, threads: map[string]bool{}} }

func (r *raised) add(thread string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.threads[thread] {
		return
	}
	for len(r.order) >= r.max {
		delete(r.threads, r.order[0])
		r.order = r.order[1:]
	}
	r.threads[thread] = true
	r.order = append(r.order, thread)
}

func (r *raised) has(thread string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.threads[thread]
}

// approverAgent is the human in the loop: the first run pauses on
// an interrupt; the next run, whose input resumes it, acts on the answer.
// A resume is acted on only when it answers the interrupt this agent
// raised on the thread: any other (an unknown id, or a thread it never
// paused) ends with RUN_ERROR UNKNOWN_INTERRUPT and nothing done. The
// answered interrupt stays answerable until the thread is forgotten, so a
// client retrying its resume gets the same reply.
func approverAgent() core.Agent[core.NoState] {
	open := newRaised(maxApprovalThreads)
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		thread := rc.Input().ThreadID
		if len(rc.Input().Resume) == 0 {
			open.add(thread)
			in := agui.NewInterrupt(approvalID, "tool_approval")
			in.Message = "Delete everything?"
			return agui.Interrupted(in), nil
		}
		answer, ok := rc.ResumeFor(approvalID)
		if !ok || len(rc.Input().Resume) != 1 || !open.has(thread) {
			return agui.Outcome{}, agui.NewError(codeUnknownInterrupt, "the resume answers no interrupt raised on this thread")
		}
		reply := "Cancelled."
		if answer.Status == agui.ResumeResolved {
			reply = "Done."
		}
		if err := rc.Say(reply); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})
}
