package aguitest_test

import (
	"fmt"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
)

func TestEventsCoverEveryType(t *testing.T) {
	count := map[agui.EventType]int{}
	for _, ev := range aguitest.Samples() {
		count[ev.Type()]++
	}
	for _, typ := range agui.EventTypes() {
		if count[typ] == 0 {
			t.Errorf("no sample of %s", typ)
		}
	}
}

func TestEventsAreFresh(t *testing.T) {
	a, b := aguitest.Samples(), aguitest.Samples()
	a[0].(*agui.RunStarted).RunID = "changed"
	if b[0].(*agui.RunStarted).RunID == "changed" {
		t.Fatal("two calls share an event")
	}
}

func TestEventsEncode(t *testing.T) {
	for i, ev := range aguitest.Samples() {
		if _, err := ev.AppendJSON(nil); err != nil {
			t.Errorf("#%d %s: %v", i, ev.Type(), err)
		}
	}
}

func ExampleSamples() {
	evs := aguitest.Samples()
	fmt.Println(evs[0].Type(), len(evs) >= len(agui.EventTypes()))
	// Output: RUN_STARTED true
}
