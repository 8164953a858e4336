package loop

import (
	"context"

	"github.com/agui-go/agui/core"
)

// Subagent opens a subagent invocation under the running tool call ctx
// belongs to: SUBAGENT_STARTED named name, attributed to the call and
// the assistant message that made it. It is for a tool that runs an
// agent by other means than [Delegate], such as a remote AG-UI agent:
// the tool emits the invocation's events through the returned
// [core.Subagent] and closes it with Finish or Fail (one left open is
// closed by the runner). The error is [ErrNotInTool] or the transport's.
func Subagent(ctx context.Context, name string) (*core.Subagent, error) {
	s, ok := scopeOf(ctx)
	if !ok {
		return nil, ErrNotInTool
	}
	ss, err := s.sink.subagent(name, s.toolCallID, s.messageID)
	if err != nil {
		return nil, err
	}
	return ss.sub, nil
}
