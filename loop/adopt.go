package loop

import "github.com/agui-go/agui"

// adopt makes a valid transcript of a client's history for a thread the
// store has never seen: user, system, developer and assistant messages are
// kept in order; each assistant call gets the first tool message that
// answers it among the tool messages right after its turn, in call order,
// or a "not-run" result; other tool messages, calls with an empty or
// repeated id and activity or reasoning messages are dropped.
func (r *run) adopt(in []agui.Message) []agui.Message {
	var out []agui.Message
	seen := map[string]bool{}
	for i := 0; i < len(in); i++ {
		switch m := in[i].(type) {
		case *agui.UserMessage, *agui.SystemMessage, *agui.DeveloperMessage:
			out = append(out, m)
		case *agui.AssistantMessage:
			var calls []agui.ToolCall
			for _, c := range m.ToolCalls {
				if c.ID != "" && !seen[c.ID] {
					seen[c.ID] = true
					calls = append(calls, c)
				}
			}
			if len(calls) != len(m.ToolCalls) {
				cp := *m
				cp.ToolCalls = calls
				m = &cp
			}
			out = append(out, m)
			given := map[string]*agui.ToolMessage{}
			for i+1 < len(in) {
				tm, ok := in[i+1].(*agui.ToolMessage)
				if !ok {
					break
				}
				if given[tm.ToolCallID] == nil {
					given[tm.ToolCallID] = tm
				}
				i++
			}
			for _, c := range calls {
				tm := given[c.ID]
				if tm == nil {
					out = append(out, r.errorResult(c.ID, KindNotRun, "not run: the call came with the client's history, without a result"))
					continue
				}
				if tm.ID == "" {
					cp := *tm
					cp.ID = newID("result")
					tm = &cp
				}
				out = append(out, tm)
			}
		}
	}
	return out
}
