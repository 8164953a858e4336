package loop

import (
	"strconv"

	"github.com/agui-go/agui"
)

// maxIDJSON is the most bytes of JSON one id of a run's input may take.
// An event carries at most three such ids (TOOL_CALL_START: the call, its
// tool's name and its parent message) beside fields the loop bounds, so
// three of them fit in [agui.MaxEventSize] with room to spare.
const maxIDJSON = (agui.MaxEventSize - 64<<10) / 3

// checkInputIDs refuses a run whose input would make an event the run
// must emit exceed [agui.MaxEventSize]: the thread and run ids (on
// RUN_STARTED and RUN_FINISHED), and each message id, tool call id and
// frontend tool name of the input (on the tool call and result events
// that may carry them) must each be at most [maxIDJSON] bytes of JSON,
// and a tool message of the input, which may become a frontend call's
// TOOL_CALL_RESULT, must fit in one event. It runs before the thread is
// claimed, so such a run fails with [CodeIDTooLong] before any tool runs
// instead of failing SERIALIZATION after a tool with side effects ran.
// It is the loop's own check, for [Agent.Execute] and [core.Run] callers
// as much as for the HTTP transport. Its messages never quote the id.
func checkInputIDs(in Input) error {
	if err := idFits("the thread id", in.ThreadID); err != nil {
		return err
	}
	if err := idFits("the run id", in.RunID); err != nil {
		return err
	}
	for _, t := range in.Tools {
		if err := idFits("a frontend tool's name", t.Name); err != nil {
			return err
		}
	}
	for _, m := range in.Messages {
		if m == nil {
			continue
		}
		if err := idFits("a message id", m.MessageID()); err != nil {
			return err
		}
		switch m := m.(type) {
		case *agui.AssistantMessage:
			for _, c := range m.ToolCalls {
				if err := idFits("a tool call id", c.ID); err != nil {
					return err
				}
			}
		case *agui.ToolMessage:
			if err := idFits("a tool call id", m.ToolCallID); err != nil {
				return err
			}
			ev := &agui.ToolCallResult{MessageID: m.ID, ToolCallID: m.ToolCallID, Content: m.Content, Role: agui.RoleTool}
			b, err := ev.AppendJSON(nil)
			if err == nil && len(b) > agui.MaxEventSize-64<<10 {
				return agui.NewError(CodeIDTooLong, "a tool result of the input takes "+strconv.Itoa(len(b))+
					" bytes of JSON as an event, over the "+strconv.Itoa(agui.MaxEventSize)+"-byte event limit")
			}
		}
	}
	return nil
}

// idFits refuses id, named what, when it is over maxIDJSON bytes of JSON.
func idFits(what, id string) error {
	if len(id) <= maxIDJSON/6 {
		return nil // fits even if every byte is escaped
	}
	if n := jsonLen(id); n > maxIDJSON {
		return agui.NewError(CodeIDTooLong, what+" takes "+strconv.Itoa(n)+" bytes of JSON, over the "+
			strconv.Itoa(maxIDJSON)+"-byte limit of an id (the events carrying it would exceed the "+
			strconv.Itoa(agui.MaxEventSize)+"-byte event limit)")
	}
	return nil
}
