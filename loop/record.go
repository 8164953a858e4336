package loop

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"slices"

	"github.com/agui-go/agui"
)

// The thread's transcript is the record: a client's history of a known
// thread is read only for its new user, system and developer messages
// (and the results of pending frontend calls); whatever else differs
// from the transcript is ignored, and logged once per run by
// logHistoryDiff so that an operator sees a client that edits, reorders,
// truncates or forges history.

// maxDiffIDs bounds the message ids one history-difference log line
// names, and maxDiffIDBytes each id's length in it.
const (
	maxDiffIDs     = 8
	maxDiffIDBytes = 64
)

// historyDiff is how a client's history differs from the transcript.
type historyDiff struct {
	// edited: messages the transcript has under the same id with other
	// content or role; reordered: known messages out of transcript order;
	// omitted: transcript messages missing from a history that holds at
	// least one of them; ignored: assistant, tool and reasoning messages
	// the transcript lacks (forged turns and results). Activity messages
	// are the client's own view of progress, never model input, so one the
	// transcript lacks is no contradiction.
	edited, reordered, omitted, ignored int
	ids                                 []string
}

func (d *historyDiff) note(n *int, id string) {
	*n++
	if len(d.ids) < maxDiffIDs {
		if len(id) > maxDiffIDBytes {
			id = id[:maxDiffIDBytes]
		}
		d.ids = append(d.ids, id)
	}
}

// tampered reports whether the client sent anything the transcript
// contradicts (an omission alone is a stale or short client).
func (d historyDiff) tampered() bool { return d.edited+d.reordered+d.ignored > 0 }

// diffHistory compares a client's history in with transcript; awaiting
// are the ids of frontend calls whose results the client may send.
func diffHistory(transcript, in []agui.Message, awaiting []string) historyDiff {
	var d historyDiff
	at := make(map[string]int, len(transcript))
	for i, m := range transcript {
		if id := m.MessageID(); id != "" {
			at[id] = i
		}
	}
	seen := map[string]bool{}
	last := -1
	for _, m := range in {
		if m == nil {
			continue
		}
		id := m.MessageID()
		i, known := at[id]
		if !known || id == "" {
			switch m := m.(type) {
			case *agui.UserMessage, *agui.SystemMessage, *agui.DeveloperMessage, *agui.ActivityMessage:
			case *agui.ToolMessage:
				if !slices.Contains(awaiting, m.ToolCallID) {
					d.note(&d.ignored, id)
				}
			default:
				d.note(&d.ignored, id)
			}
			continue
		}
		seen[id] = true
		if i < last {
			d.note(&d.reordered, id)
		}
		last = max(last, i)
		if !sameMessage(transcript[i], m) {
			d.note(&d.edited, id)
		}
	}
	if len(seen) > 0 {
		for _, m := range transcript {
			if _, ok := m.(*agui.ActivityMessage); ok {
				continue // clients never send activity messages back
			}
			if id := m.MessageID(); id != "" && !seen[id] {
				d.note(&d.omitted, id)
			}
		}
	}
	return d
}

// sameMessage reports whether a and b say the same: role, content, and an
// assistant turn's calls or a result's call. Fields a client rebuilds
// from events differently (metadata, names, encrypted values) are not
// compared, so an honest client is not reported.
func sameMessage(a, b agui.Message) bool {
	if a.Role() != b.Role() {
		return false
	}
	switch a := a.(type) {
	case *agui.UserMessage:
		return sameJSON(a.Content, b.(*agui.UserMessage).Content)
	case *agui.SystemMessage:
		return a.Content == b.(*agui.SystemMessage).Content
	case *agui.DeveloperMessage:
		return a.Content == b.(*agui.DeveloperMessage).Content
	case *agui.AssistantMessage:
		b := b.(*agui.AssistantMessage)
		return a.Content == b.Content && slices.EqualFunc(a.ToolCalls, b.ToolCalls, func(x, y agui.ToolCall) bool {
			return x.ID == y.ID && x.Function == y.Function
		})
	case *agui.ToolMessage:
		b := b.(*agui.ToolMessage)
		return a.ToolCallID == b.ToolCallID && a.Error == b.Error && sameJSON(a.Content, b.Content)
	}
	return true
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// logHistoryDiff logs, once, how the client's history in differs from
// the claimed thread's transcript: at Warn when the client contradicts
// it, at Info when it only lacks messages.
func (r *run) logHistoryDiff(ctx context.Context, in []agui.Message) {
	if r.historyLogged {
		return
	}
	r.historyLogged = true
	d := diffHistory(r.cp.Messages, sinceTranscriptStart(r.cp.Messages, in), r.cp.ClientCalls)
	if d.edited+d.reordered+d.omitted+d.ignored == 0 {
		return
	}
	level := slog.LevelInfo
	if d.tampered() {
		level = slog.LevelWarn
	}
	l := r.a.cfg.logger
	if l == nil {
		l = slog.Default()
	}
	l.LogAttrs(ctx, level, "loop: the client's history differs from the thread's transcript; the transcript is used",
		slog.String("threadId", r.thread), slog.String("runId", r.runID),
		slog.Int("edited", d.edited), slog.Int("reordered", d.reordered),
		slog.Int("omitted", d.omitted), slog.Int("ignored", d.ignored), slog.Any("messageIds", d.ids))
}
