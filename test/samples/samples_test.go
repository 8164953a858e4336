package samples_test

import (
	"fmt"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/test/samples"
)

func TestEventsCoverEveryType(t *testing.T) {
	count := map[agui.EventType]int{}
	for _, ev := range samples.Events() {
		count[ev.Type()]++
	}
	for _, typ := range agui.EventTypes() {
		if count[typ] == 0 {
			t.Errorf("no sample of %s", typ)
		}
	}
}

func TestEventsAreFresh(t *testing.T) {
	a, b := samples.Events(), samples.Events()
	a[0].(*agui.RunStarted).RunID = "changed"
	if b[0].(*agui.RunStarted).RunID == "changed" {
		t.Fatal("two calls share an event")
	}
}

func TestEventsEncode(t *testing.T) {
	for i, ev := range samples.Events() {
		if _, err := ev.AppendJSON(nil); err != nil {
			t.Errorf("#%d %s: %v", i, ev.Type(), err)
		}
	}
}

func ExampleEvents() {
	evs := samples.Events()
	fmt.Println(evs[0].Type(), len(evs) >= len(agui.EventTypes()))
	// Output: RUN_STARTED true
}
