package loop

import "github.com/agui-go/agui/core"

// subagentOptions links a subagent invocation to the tool call that
// started it. The runner's option constructors are not in core yet, so
// the link is carried only by the funcSink for now.
func subagentOptions(toolCallID, messageID string) []core.SubagentOption { return nil }
