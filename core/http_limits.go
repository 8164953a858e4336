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
	// DefaultMaxMessages lets a long agentic thread through whole: every
	// request carries its history, and a thread of tool calls reaches
	// thousands of messages. 16,384 messages of about 300 bytes are 4.9 MB,
	// within [DefaultMaxBodyBytes], so a thread of such messages meets
	// neither limit below 16,384. Taking one costs about 2.1-2.4 µs of
	// server CPU per message (BENCHMARKS.md, the thread-length sweep:
	// 10.5-11.8 ms for 5,000 messages), so the limit bounds one request at
	// about 35-40 ms.
	DefaultMaxMessages = 16384
	DefaultMaxTools    = 256
	DefaultMaxResume   = 64
	// DefaultMaxIDBytes bounds each id of an input. Ids are UUIDs, ULIDs
	// or provider call ids (36 bytes, 26, about 40): 256 bytes leaves room
	// for prefixed or composite ids, while an id, which every event of the
	// run, every log line and every stored record repeats, stays small.
	DefaultMaxIDBytes = 256
)

// CodeInputTooLarge is the code of the 413 for a request over an
// [InputLimits] count.
const CodeInputTooLarge agui.Code = "INPUT_TOO_LARGE"

// InputLimits bounds the work one request can ask for, beyond its byte
// size ([WithMaxBodyBytes]): the number of messages, tools and resume
// entries, and the length of each id. A zero field keeps its default
// ([DefaultMaxMessages], [DefaultMaxTools], [DefaultMaxResume],
// [DefaultMaxIDBytes]). It is a plain value.
type InputLimits struct {
	Messages int
	Tools    int
	Resume   int
	// IDBytes bounds, in bytes, each id the input carries: threadId, runId,
	// parentRunId, and each message's id, subagentRunId, toolCallId, tool
	// call id and resume interruptId.
	IDBytes int
}

// WithInputLimits sets the handler's input limits (see [InputLimits] for the
// defaults). A request over a count is refused with 413 and code
// INPUT_TOO_LARGE, naming the field; an id over IDBytes, or one with a
// control character, is an invalid
// input, 422 and code INVALID_INPUT with the id's JSON path (such as
// messages[2].toolCalls[0].id). Both are answered before any run starts.
// [NewHandler] fails on a negative limit.
func WithInputLimits(l InputLimits) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.limits = l })
}

// withDefaults fills the zero fields with the defaults.
func (l InputLimits) withDefaults() (InputLimits, error) {
	if l.Messages < 0 || l.Tools < 0 || l.Resume < 0 || l.IDBytes < 0 {
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
	if l.IDBytes == 0 {
		l.IDBytes = DefaultMaxIDBytes
	}
	return l, nil
}

// check refuses an input over a limit.
func (l InputLimits) check(in *agui.RunAgentInput) error {
	for _, c := range []struct {
		field, limit string // the input's field, the limit's
		n, max       int
	}{{"messages", "Messages", len(in.Messages), l.Messages}, {"tools", "Tools", len(in.Tools), l.Tools}, {"resume", "Resume", len(in.Resume), l.Resume}} {
		if c.n > c.max {
			return &RequestError{Status: http.StatusRequestEntityTooLarge, Code: CodeInputTooLarge, Field: c.field,
				Message: "the input has more than " + strconv.Itoa(c.max) + " " + c.field +
					" (the limit is InputLimits." + c.limit + ": raise it with core.WithInputLimits)"}
		}
	}
	return l.checkIDs(in)
}

// checkIDs refuses an input carrying an id over l.IDBytes, or one with a
// control character, naming the first one's path. Ids
// become keys of stores, paths of URLs and fields of logs, where such bytes
// are refused (PostgreSQL's text takes no NUL) or mislead.
func (l InputLimits) checkIDs(in *agui.RunAgentInput) error {
	var why string
	bad := func(id string) bool {
		switch {
		case len(id) > l.IDBytes:
			why = "longer than " + strconv.Itoa(l.IDBytes) + " bytes"
		case !printable(id):
			why = "a control character"
		default:
			return false
		}
		return true
	}
	refuse := func(field string) error {
		return &RequestError{Status: http.StatusUnprocessableEntity, Code: CodeInvalidInput, Field: field,
			Message: field + ": " + why}
	}
	for _, c := range []struct{ field, id string }{{"threadId", in.ThreadID}, {"runId", in.RunID}, {"parentRunId", in.ParentRunID}} {
		if bad(c.id) {
			return refuse(c.field)
		}
	}
	for i, m := range in.Messages {
		at := func(field string) string { return "messages[" + strconv.Itoa(i) + "]." + field }
		if bad(m.MessageID()) {
			return refuse(at("id"))
		}
		if bad(m.Subagent()) {
			return refuse(at("subagentRunId"))
		}
		switch m := m.(type) {
		case *agui.ToolMessage:
			if bad(m.ToolCallID) {
				return refuse(at("toolCallId"))
			}
		case *agui.AssistantMessage:
			for j, tc := range m.ToolCalls {
				if bad(tc.ID) {
					return refuse(at("toolCalls[" + strconv.Itoa(j) + "].id"))
				}
			}
		}
	}
	for i, r := range in.Resume {
		if bad(r.InterruptID) {
			return refuse("resume[" + strconv.Itoa(i) + "].interruptId")
		}
	}
	return nil
}

// printable reports whether id has no control character. (The decoders
// have replaced invalid UTF-8 already, as encoding/json does.)
func printable(id string) bool {
	for i := 0; i < len(id); i++ {
		if c := id[i]; c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}
