//go:build agui_debug && !agui_noverify

package agui

import (
	"strconv"
	"strings"
)

// openDump lists everything still open, in the form
// ` [open: messages={"msg-1"}, steps={"plan"}]`, for the message of a
// rejection. It is the expensive part of a rejection, hence debug-only.
func (v *Verifier) openDump() string {
	open := v.openSets()
	var b strings.Builder
	b.WriteString(" [open: ")
	n := 0
	add := func(category string, items []string) {
		if len(items) == 0 {
			return
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		b.WriteString(category)
		b.WriteString("={")
		b.WriteString(strings.Join(items, ", "))
		b.WriteString("}")
	}
	quote := func(ids []string) []string {
		q := make([]string, len(ids))
		for i, id := range ids {
			q[i] = strconv.Quote(id)
		}
		return q
	}
	steps := make([]string, len(open.steps))
	for i, k := range open.steps {
		steps[i] = strconv.Quote(k.name)
		if k.owner != "" {
			steps[i] += " (" + ownerName(k.owner) + ")"
		}
	}
	add("messages", quote(open.messages))
	add("tool-calls", quote(open.toolCalls))
	add("steps", steps)
	add("reasoning", quote(open.spans))
	add("reasoning-messages", quote(open.thoughts))
	add("subagents", quote(open.subagents))
	if n == 0 {
		b.WriteString("nothing")
	}
	b.WriteString("]")
	return b.String()
}
