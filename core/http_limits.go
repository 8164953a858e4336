package core

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/agui-go/agui"
)

// Default counts of [InputLimits]: far above what a chat client sends, and
// low enough that one request cannot make a run walk millions of items.
const (
	DefaultMaxMessages = 4096
	DefaultMaxTools    = 256
	DefaultMaxResume   = 64
)

// CodeInputTooLarge is the code of the 413 for a request over an
// [InputLimits] count.
const CodeInputTooLarge = "INPUT_TOO_LARGE"

// InputLimits bounds the work one request can ask for, beyond its byte
// size ([WithMaxBodyBytes]): the number of messages, tools and resume
// entries. A zero field keeps its default ([DefaultMaxMessages],
// [DefaultMaxTools], [DefaultMaxResume]). It is a plain value.
type InputLimits struct {
	Messages int
	Tools    int
	Resume   int
}

// WithInputLimits sets the handler's input limits (see [InputLimits] for the
// defaults). A request over one is refused with 413 and code
// INPUT_TOO_LARGE, naming the field, before any run starts. [NewHandler]
// fails on a negative limit.
func WithInputLimits(l InputLimits) Option {
	return optionFunc(func(s *settings) { s.handler.limits = l })
}

// withDefaults fills the zero fields with the defaults.
func (l InputLimits) withDefaults() (InputLimits, error) {
	if l.Messages < 0 || l.Tools < 0 || l.Resume < 0 {
		return l, errors.New("core: WithInputLimits needs non-negative limits")
	}
	if l.Messages == 0 {
		l.Messages = DefaultMaxMessages
	}
	if l.Tools == 0 {
		l.Tools = DefaultMaxTools
	}
	if l.Resume == 0 {
		l.Resume = DefaultMaxResume
	}
	return l, nil
}

// check refuses an input over a limit.
func (l InputLimits) check(in *agui.RunAgentInput) error {
	for _, c := range []struct {
		field string
		n     int
		max   int
	}{{"messages", len(in.Messages), l.Messages}, {"tools", len(in.Tools), l.Tools}, {"resume", len(in.Resume), l.Resume}} {
		if c.n > c.max {
			return &RequestError{Status: http.StatusRequestEntityTooLarge, Code: CodeInputTooLarge, Field: c.field,
				Message: "the input has more than " + strconv.Itoa(c.max) + " " + c.field}
		}
	}
	return nil
}
