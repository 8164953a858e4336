package core

import "github.com/agui-go/agui"

// RunContext is what an agent is handed for one run: the run's input, its
// shared state of type S, and (embedded) the [Emitter] of the run's own
// agent.
//
// A RunContext is safe for concurrent use. It is valid only while the
// agent's Run is executing; emits after Run has returned fail.
type RunContext[S any] struct {
	*Emitter
	in     *agui.RunAgentInput
	state  state[S]
	report report
}

// Input returns the run's input. It is shared, not copied: treat it as
// read-only.
func (rc *RunContext[S]) Input() *agui.RunAgentInput { return rc.in }

// ResumeFor returns the client's answer to the interrupt with the given id,
// if the input's resume carries one.
func (rc *RunContext[S]) ResumeFor(id string) (agui.ResumeEntry, bool) {
	for _, r := range rc.in.Resume {
		if r.InterruptID == id {
			return r, true
		}
	}
	return agui.ResumeEntry{}, false
}

// ResumeCovers reports whether the input's resume answers every one of
// ids: whether a run that paused on those interrupts can go on.
func (rc *RunContext[S]) ResumeCovers(ids ...string) bool {
	for _, id := range ids {
		if _, ok := rc.ResumeFor(id); !ok {
			return false
		}
	}
	return true
}
