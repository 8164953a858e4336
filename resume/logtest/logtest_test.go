package logtest_test

import (
	"testing"

	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/logtest"
)

func TestMemoryLog(t *testing.T) {
	logtest.Run(t, func(t *testing.T) resume.Log {
		lg, err := resume.NewMemoryLog()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = lg.Close() })
		return lg
	})
}
