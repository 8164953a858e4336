package client

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/agui-go/agui"
)

// chunks expands TEXT_MESSAGE_CHUNK, TOOL_CALL_CHUNK and
// REASONING_MESSAGE_CHUNK into the start, content and end events they
// stand for, as @ag-ui/client does before verification. Each lane (the
// run's own agent, and each subagent) has at most one open chunk stream;
// a chunk that names another id, a chunk of another kind, or any other
// event of the lane except RAW ends it, and a run's terminal event or its
// subagent's terminal event ends it too.
//
// A chunks is not safe for concurrent use.
type chunks struct {
	open map[string]*chunkStream // by lane: subagent run id, "" for the agent
}

type chunkStream struct {
	kind agui.EventType // the chunk type that opened it
	id   string
	role agui.Role // text streams
	name string    // tool streams
}

// expand returns the events ev stands for, in order.
func (c *chunks) expand(ev agui.Event) ([]agui.Event, error) {
	lane := agui.SubagentOf(ev)
	switch e := ev.(type) {
	case *agui.TextMessageChunk:
		return c.text(e, lane)
	case *agui.ToolCallChunk:
		return c.tool(e, lane)
	case *agui.ReasoningMessageChunk:
		return c.reasoning(e, lane)
	case *agui.Raw:
		return []agui.Event{ev}, nil
	case *agui.RunFinished, *agui.RunError:
		lanes := slices.Sorted(maps.Keys(c.open))
		var out []agui.Event
		for _, l := range lanes {
			out = c.close(out, l)
		}
		return append(out, ev), nil
	case *agui.SubagentFinished:
		return append(c.close(nil, e.SubagentRunID), ev), nil
	case *agui.SubagentError:
		return append(c.close(nil, e.SubagentRunID), ev), nil
	}
	return append(c.close(nil, lane), ev), nil
}

// close appends the end event of lane's open stream, if any, to out.
func (c *chunks) close(out []agui.Event, lane string) []agui.Event {
	s := c.open[lane]
	if s == nil {
		return out
	}
	delete(c.open, lane)
	var end agui.Attributed
	switch s.kind {
	case agui.TypeTextMessageChunk:
		end = &agui.TextMessageEnd{MessageID: s.id}
	case agui.TypeToolCallChunk:
		end = &agui.ToolCallEnd{ToolCallID: s.id}
	default:
		end = &agui.ReasoningMessageEnd{MessageID: s.id}
	}
	end.SetSubagent(lane)
	return append(out, end)
}

// continues reports whether a chunk of kind naming id goes on with lane's
// open stream (a chunk with no id goes on with an open stream of its kind).
func (c *chunks) continues(lane string, kind agui.EventType, id string) *chunkStream {
	s := c.open[lane]
	if s != nil && s.kind == kind && (id == "" || id == s.id) {
		return s
	}
	return nil
}

func (c *chunks) opened(lane string, s *chunkStream) {
	if c.open == nil {
		c.open = map[string]*chunkStream{}
	}
	c.open[lane] = s
}

func (c *chunks) text(e *agui.TextMessageChunk, lane string) ([]agui.Event, error) {
	var out []agui.Event
	s := c.continues(lane, agui.TypeTextMessageChunk, e.MessageID)
	if s != nil {
		if e.Role != "" && e.Role != s.role {
			return nil, chunkError(fmt.Sprintf("TEXT_MESSAGE_CHUNK role %q of message %q does not match the open stream's role %q", e.Role, s.id, s.role))
		}
	} else {
		out = c.close(out, lane)
		if e.MessageID == "" {
			return nil, chunkError("First TEXT_MESSAGE_CHUNK must have a messageId: no chunk stream is open to continue")
		}
		s = &chunkStream{kind: agui.TypeTextMessageChunk, id: e.MessageID, role: cmp.Or(e.Role, agui.RoleAssistant)}
		c.opened(lane, s)
		start := &agui.TextMessageStart{MessageID: s.id, Role: s.role, Name: e.Name}
		start.Metadata = e.Metadata
		start.SetSubagent(lane)
		out = append(out, start)
	}
	if e.Delta != "" {
		content := &agui.TextMessageContent{MessageID: s.id, Delta: e.Delta}
		content.Metadata = e.Metadata
		content.SetSubagent(lane)
		out = append(out, content)
	}
	return out, nil
}

func (c *chunks) tool(e *agui.ToolCallChunk, lane string) ([]agui.Event, error) {
	var out []agui.Event
	s := c.continues(lane, agui.TypeToolCallChunk, e.ToolCallID)
	if s != nil {
		if e.ToolCallName != "" && e.ToolCallName != s.name {
			return nil, chunkError(fmt.Sprintf("TOOL_CALL_CHUNK toolCallName %q of tool call %q does not match the open stream's toolCallName %q", e.ToolCallName, s.id, s.name))
		}
	} else {
		out = c.close(out, lane)
		if e.ToolCallID == "" {
			return nil, chunkError("First TOOL_CALL_CHUNK must have a toolCallId: no chunk stream is open to continue")
		}
		if e.ToolCallName == "" {
			return nil, chunkError(fmt.Sprintf("First TOOL_CALL_CHUNK must have a toolCallName: tool call %q has none", e.ToolCallID))
		}
		s = &chunkStream{kind: agui.TypeToolCallChunk, id: e.ToolCallID, name: e.ToolCallName}
		c.opened(lane, s)
		start := &agui.ToolCallStart{ToolCallID: s.id, ToolCallName: s.name, ParentMessageID: e.ParentMessageID}
		start.Metadata = e.Metadata
		start.SetSubagent(lane)
		out = append(out, start)
	}
	if e.Delta != "" {
		args := &agui.ToolCallArgs{ToolCallID: s.id, Delta: e.Delta}
		args.Metadata = e.Metadata
		args.SetSubagent(lane)
		out = append(out, args)
	}
	return out, nil
}

func (c *chunks) reasoning(e *agui.ReasoningMessageChunk, lane string) ([]agui.Event, error) {
	var out []agui.Event
	s := c.continues(lane, agui.TypeReasoningMessageChunk, e.MessageID)
	if s == nil {
		out = c.close(out, lane)
		if e.MessageID == "" {
			return nil, chunkError("First REASONING_MESSAGE_CHUNK must have a messageId: no chunk stream is open to continue")
		}
		s = &chunkStream{kind: agui.TypeReasoningMessageChunk, id: e.MessageID}
		c.opened(lane, s)
		start := &agui.ReasoningMessageStart{MessageID: s.id}
		start.Metadata = e.Metadata
		start.SetSubagent(lane)
		out = append(out, start)
	}
	if e.Delta != "" {
		content := &agui.ReasoningMessageContent{MessageID: s.id, Delta: e.Delta}
		content.Metadata = e.Metadata
		content.SetSubagent(lane)
		out = append(out, content)
	}
	return out, nil
}

// chunkError is a chunk stream the client rejects.
func chunkError(msg string) error {
	return agui.NewError(agui.CodeProtocolViolation, "client: "+msg)
}
