package pb_test

import (
	"fmt"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/pb"
)

// TestEventTypesMatchCore checks that the wire enum names exactly the 31
// event types of package core, and that the envelope has one arm each.
func TestEventTypesMatchCore(t *testing.T) {
	if got, want := len(pb.EventType_name), len(agui.EventTypes()); got != want {
		t.Errorf("the enum has %d values, core has %d event types", got, want)
	}
	for _, typ := range agui.EventTypes() {
		if _, ok := pb.EventType_value[string(typ)]; !ok {
			t.Errorf("no enum value for %s", typ)
		}
	}
	env := (&pb.Event{}).ProtoReflect().Descriptor()
	if got := env.Oneofs().ByName("event").Fields().Len(); got != len(agui.EventTypes()) {
		t.Errorf("the envelope has %d arms, want %d", got, len(agui.EventTypes()))
	}
}

func ExampleEventType() {
	// 1.0 appended its values after the 16 of 0.0.x.
	fmt.Println(pb.EventType_STEP_FINISHED.Number(), pb.EventType_SUBAGENT_STARTED.Number(), pb.EventType_REASONING_ENCRYPTED_VALUE.Number())
	// Output: 15 16 30
}
