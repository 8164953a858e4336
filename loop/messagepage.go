package loop

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/agui-go/agui"
)

// DefaultMessagePage and MaxMessagePage are the default and largest
// number of messages of one page of GET …/threads/{id}/messages.
const (
	DefaultMessagePage = 50
	MaxMessagePage     = 200
)

// messageQuery selects a page of a thread's transcript; a plain value.
// With neither Before nor After the page is the newest messages.
type messageQuery struct {
	// Before, when set, is the id of the message the page ends just
	// before; After, of the one it starts just after. Not both.
	Before, After string
	// Limit is the most messages of the page.
	Limit int
}

// MessagePage is a page of a thread's transcript as [ThreadsHandler]
// serves it, in transcript order. A page holds at most its query's Limit
// messages and, like a [History], at most [agui.MaxEventSize] less 64 KiB
// of them (at least one, though). Page back with before = the first
// message's id while HasMoreBefore, forward with after = the last one's
// while HasMoreAfter. A plain value.
type MessagePage struct {
	ThreadID      string          `json:"threadId"`
	Messages      json.RawMessage `json:"messages"`
	HasMoreBefore bool            `json:"hasMoreBefore"`
	HasMoreAfter  bool            `json:"hasMoreAfter"`
}

var (
	errBothCursors    = errors.New("before and after exclude each other")
	errUnknownMessage = errors.New("the thread has no message of that id")
)

// messagePage encodes the page of msgs that q selects as a [MessagePage].
func messagePage(threadID string, msgs []agui.Message, q messageQuery) ([]byte, error) {
	if q.Before != "" && q.After != "" {
		return nil, errBothCursors
	}
	find := func(id string) int {
		for i, m := range msgs {
			if m.MessageID() == id {
				return i
			}
		}
		return -1
	}
	start, end, forward := 0, len(msgs), q.After != ""
	switch {
	case q.Before != "":
		if end = find(q.Before); end < 0 {
			return nil, errUnknownMessage
		}
	case q.After != "":
		i := find(q.After)
		if i < 0 {
			return nil, errUnknownMessage
		}
		start = i + 1
	}
	prefix, suffix, err := snapshotFrame()
	if err != nil {
		return nil, err
	}
	var encoded [][]byte
	used := 0
	take := func(i int) (bool, error) {
		b, err := (&agui.MessagesSnapshot{Messages: msgs[i : i+1]}).AppendJSON(nil)
		if err != nil {
			return false, err
		}
		b = b[len(prefix) : len(b)-len(suffix)]
		if len(encoded) > 0 && used+len(b)+1 > snapshotRoom {
			return false, nil
		}
		used += len(b) + 1
		encoded = append(encoded, b)
		return true, nil
	}
	if forward {
		for end = start; end < len(msgs) && len(encoded) < q.Limit; end++ {
			if ok, err := take(end); err != nil {
				return nil, err
			} else if !ok {
				break
			}
		}
	} else {
		for start = end; start > 0 && len(encoded) < q.Limit; start-- {
			if ok, err := take(start - 1); err != nil {
				return nil, err
			} else if !ok {
				break
			}
		}
		for i, j := 0, len(encoded)-1; i < j; i, j = i+1, j-1 {
			encoded[i], encoded[j] = encoded[j], encoded[i]
		}
	}
	head, err := json.Marshal(threadID)
	if err != nil {
		return nil, err
	}
	body := make([]byte, 0, used+len(head)+96)
	body = append(body, `{"threadId":`...)
	body = append(body, head...)
	body = append(body, `,"messages":[`...)
	for i, m := range encoded {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, m...)
	}
	body = append(body, `],"hasMoreBefore":`...)
	body = strconv.AppendBool(body, start > 0)
	body = append(body, `,"hasMoreAfter":`...)
	body = strconv.AppendBool(body, end < len(msgs))
	return append(body, '}'), nil
}
