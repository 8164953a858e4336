package transformers

import (
	"github.com/agui-go/agui"
)

// chunkKind is the kind of entity a chunk event streams.
type chunkKind uint8

const (
	chunkText chunkKind = iota + 1
	chunkTool
	chunkReasoning
)

// chunkStream is the chunk stream pending in one lane.
type chunkStream struct {
	kind chunkKind
	id   string
}

// chunkLanes follows the client's chunk lanes (AG-UI 1.0 chunk events), so that
// a chunk without an id can be traced to the message or tool call it
// continues. Each owner (subagent run id, "" for the parent) has one lane,
// holding at most one pending chunk stream.
//
// It follows the stream as the producer emitted it, before any event is
// dropped: that is the stream whose meaning the transformer preserves.
type chunkLanes struct {
	pending map[string]chunkStream
}

// observe updates the lanes for ev and, for a chunk event, returns the id
// of the entity it streams ("" when the client could not tell either) and
// the lane it landed in, which owns that entity.
func (l *chunkLanes) observe(ev agui.Event) (id, lane string) {
	if l.pending == nil {
		l.pending = map[string]chunkStream{}
	}
	switch e := ev.(type) {
	case *agui.TextMessageChunk:
		return l.chunk(chunkText, e.MessageID, e.SubagentRunID)
	case *agui.ToolCallChunk:
		return l.chunk(chunkTool, e.ToolCallID, e.SubagentRunID)
	case *agui.ReasoningMessageChunk:
		return l.chunk(chunkReasoning, e.MessageID, e.SubagentRunID)
	case *agui.RunStarted, *agui.RunFinished, *agui.RunError, *agui.MessagesSnapshot:
		clear(l.pending)
	case *agui.SubagentFinished:
		delete(l.pending, e.SubagentRunID)
	case *agui.SubagentError:
		delete(l.pending, e.SubagentRunID)
	case *agui.Raw, *agui.ActivitySnapshot, *agui.ActivityDelta,
		*agui.ReasoningEncryptedValue, *agui.SubagentStarted:
		// These close no lane.
	default:
		// Every other explicit event closes its own lane only.
		delete(l.pending, agui.SubagentOf(ev))
	}
	return "", ""
}

// chunk resolves a chunk's lane as the client does and records the stream.
func (l *chunkLanes) chunk(kind chunkKind, id, tag string) (string, string) {
	lane, found := "", false
	if id != "" {
		for k, s := range l.pending {
			if s.kind == kind && s.id == id {
				lane, found = k, true
				break
			}
		}
	}
	switch {
	case found:
	case tag != "":
		lane = tag
	case id != "" || l.pending[""].kind == kind:
		// A new stream without a tag is the parent's, and so is an id-less
		// chunk when the parent has a stream of its kind.
		lane = ""
	default:
		n := 0
		for k, s := range l.pending {
			if s.kind == kind {
				lane, n = k, n+1
			}
		}
		if n != 1 {
			// No lane or an ambiguous one: the client rejects the chunk.
			lane = ""
		}
	}
	if id == "" {
		if s := l.pending[lane]; s.kind == kind {
			return s.id, lane
		}
		return "", lane
	}
	l.pending[lane] = chunkStream{kind: kind, id: id}
	return id, lane
}
