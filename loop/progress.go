package loop

import (
	"context"
	"errors"

	"github.com/agui-go/agui"
)

// ErrNotInTool is returned by the functions that report from a running
// tool ([Progress], [ProgressPatch], [UpdateState]) when ctx is not a tool
// call's context.
var ErrNotInTool = errors.New("loop: context is not a running tool call's")

// Progress reports a running tool's progress to the client as an AG-UI
// activity message: an ACTIVITY_SNAPSHOT whose content replaces what the
// call reported before under the same activityType. Each call and
// activityType has its own activity message (id "activity-<toolCallId>-
// <activityType>"). Call it from the tool's goroutine or any goroutine it
// owns, with the context the tool received; the error is the transport's
// (the run is then ending) or [ErrNotInTool].
func Progress(ctx context.Context, activityType string, content map[string]any) error {
	s, ok := scopeOf(ctx)
	if !ok {
		return ErrNotInTool
	}
	if content == nil {
		content = map[string]any{}
	}
	return s.sink.emit(&agui.ActivitySnapshot{MessageID: activityID(s, activityType), ActivityType: activityType, Content: content})
}

// ProgressPatch patches the activity message an earlier [Progress] call of
// the same tool call and activityType created, with an ACTIVITY_DELTA of
// RFC 6902 operations.
func ProgressPatch(ctx context.Context, activityType string, ops ...agui.PatchOp) error {
	s, ok := scopeOf(ctx)
	if !ok {
		return ErrNotInTool
	}
	return s.sink.emit(&agui.ActivityDelta{MessageID: activityID(s, activityType), ActivityType: activityType, Patch: ops})
}

func activityID(s scope, activityType string) string {
	return "activity-" + s.toolCallID + "-" + activityType
}
