package loop

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agui-go/agui"
)

// History is a thread as [ThreadsHandler] serves it (GET …/threads/{id}): its transcript in
// AG-UI message shapes and its shared state (JSON null without one).
//
// A thread longer than one event holds is served by its newest part, as
// its MESSAGES_SNAPSHOT is: Messages are the newest messages whose JSON
// fits, with the state, in [agui.MaxEventSize] less 64 KiB (never
// starting with a tool result whose call is left out), and Omitted
// counts the older messages left out (page through them with
// GET …/threads/{id}/messages, [MessagePage]). The body stays bounded however long the thread grows: it is over
// the event limit only when the state alone is.
type History struct {
	ThreadID string          `json:"threadId"`
	Messages json.RawMessage `json:"messages"`
	State    json.RawMessage `json:"state"`
	// Omitted is how many of the thread's oldest messages are not in
	// Messages (absent when none is).
	Omitted int `json:"omitted,omitempty"`
}

// historyBody encodes thread id's [History]: its state and the newest of
// its messages that fit, with the state, in [historyRoom] bytes. The
// messages are encoded once, by the same encoder as events, and copied
// into the body as they are.
func historyBody(id string, cp *Checkpoint) ([]byte, error) {
	state := cp.State
	if state == nil {
		state = json.RawMessage("null")
	}
	head, err := json.Marshal(struct {
		ThreadID string          `json:"threadId"`
		State    json.RawMessage `json:"state"`
	}{id, state})
	if err != nil {
		return nil, err
	}
	start, encoded, err := newestThatFit(cp.Messages, historyRoom-len(head))
	if err != nil {
		return nil, err
	}
	n := len(head) + 64
	for _, m := range encoded {
		n += len(m) + 1
	}
	body := make([]byte, 0, n)
	body = append(body, head[:len(head)-1]...) // without its closing brace
	body = append(body, `,"messages":[`...)
	for i, m := range encoded {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, m...)
	}
	body = append(body, ']')
	if start > 0 {
		body = append(body, `,"omitted":`...)
		body = strconv.AppendInt(body, int64(start), 10)
	}
	return append(body, '}'), nil
}

// snapshotRoom is the most bytes of JSON the messages of one
// MESSAGES_SNAPSHOT may take: [agui.MaxEventSize] less room for the
// event's own fields (type, timestamp, attribution) and for a dialect's
// rewriting of the messages (see [agui.Downgrade]).
const snapshotRoom = agui.MaxEventSize - 64<<10

// historyRoom bounds a [ThreadsHandler] body as an event is bounded: a
// client that can take the stream's snapshot can take the thread's
// history.
const historyRoom = snapshotRoom

// newestThatFit returns where the newest part of msgs whose JSON array
// fits in room bytes starts, and that part's messages encoded one by one.
// It encodes from the newest message back and stops at the first that
// does not fit, so it costs at most room bytes of encoding however long
// the thread. The part never starts with a tool message: a result
// without its call is not a transcript any client or provider accepts,
// so a result whose call did not fit is left out with it.
func newestThatFit(msgs []agui.Message, room int) (int, [][]byte, error) {
	prefix, suffix, err := snapshotFrame()
	if err != nil {
		return 0, nil, err
	}
	var (
		encoded [][]byte
		used    = 2 // []
		start   = len(msgs)
	)
	for i := len(msgs) - 1; i >= 0; i-- {
		b, err := (&agui.MessagesSnapshot{Messages: msgs[i : i+1]}).AppendJSON(nil)
		if err != nil {
			return 0, nil, err
		}
		b = b[len(prefix) : len(b)-len(suffix)]
		if used+len(b)+1 > room {
			break
		}
		used += len(b) + 1
		encoded = append(encoded, b)
		start = i
	}
	for start < len(msgs) {
		if _, ok := msgs[start].(*agui.ToolMessage); !ok {
			break
		}
		start++
		encoded = encoded[:len(encoded)-1]
	}
	slices.Reverse(encoded)
	return start, encoded, nil
}

// snapshotFrame returns the JSON of an empty MESSAGES_SNAPSHOT on either
// side of its messages array's content: a one-message snapshot is
// prefix, the message, suffix.
func snapshotFrame() (prefix, suffix []byte, err error) {
	b, err := (&agui.MessagesSnapshot{Messages: []agui.Message{}}).AppendJSON(nil)
	if err != nil {
		return nil, nil, err
	}
	i := strings.LastIndex(string(b), "[]")
	if i < 0 {
		return nil, nil, errors.New("loop: unexpected MESSAGES_SNAPSHOT encoding")
	}
	return b[:i+1], b[i+1:], nil
}

// jsonLen is an upper bound on the bytes s takes as a JSON string: six
// for a byte or character an encoder may escape as \uXXXX (controls,
// HTML characters, invalid UTF-8, U+2028 and U+2029), two for one escaped
// with a backslash, and each other character as it is.
func jsonLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 6
		case r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// announceHistory sends MESSAGES_SNAPSHOT of the thread's transcript when
// the input's history lacks a message the thread has: a reloaded page or
// a second tab then shows the whole thread before the run goes on.
//
// A snapshot is one event, and a client replaces its messages with it
// (several snapshots would each replace the last), so a thread whose
// transcript does not fit in [agui.MaxEventSize] gets the newest
// messages that fit ([newestThatFit]): the client shows the recent part
// of the thread, the run goes on, and the older part stays in the
// checkpoint for the model. A client that already holds every message of
// that part gets no snapshot, and when not even the newest message fits
// there is none: the client keeps what it has.
func (r *run) announceHistory(in []agui.Message) {
	if r.line.depth > 0 {
		// A delegated run's transcript is the loop's own business.
		return
	}
	have := make(map[string]bool, len(in))
	for _, m := range in {
		have[m.MessageID()] = true
	}
	view := slices.Clip(r.cp.Messages)
	if msg, first := r.pendingTurn(); msg != nil {
		// What the client holds of a turn still pending: the results it
		// was sent or sent itself, in call order.
		for _, c := range msg.ToolCalls[first:] {
			for _, p := range r.cp.Parked {
				if p.ToolCallID == c.ID && !r.announce[c.ID] {
					view = append(view, p)
				}
			}
		}
	}
	view = append(view, r.input...)
	if !lacks(have, view) {
		return
	}
	start, _, err := newestThatFit(view, snapshotRoom)
	if err != nil {
		// A message that does not encode: the sink would refuse the
		// snapshot the same way, and say why.
		start = 0
	}
	view = view[start:]
	if len(view) == 0 || !lacks(have, view) {
		return
	}
	r.emit(&agui.MessagesSnapshot{Messages: view})
	// The client now holds every call of the snapshot, as if its history
	// had carried them.
	for id := range callIDs(view) {
		r.clientCalls[id] = true
	}
}

// lacks reports whether a message of msgs is not in have. Activity
// messages do not count: clients keep them but never send them back
// (@ag-ui/client strips them from a run's input), and the run's events
// gave them their content.
func lacks(have map[string]bool, msgs []agui.Message) bool {
	for _, m := range msgs {
		if _, ok := m.(*agui.ActivityMessage); !ok && !have[m.MessageID()] {
			return true
		}
	}
	return false
}
