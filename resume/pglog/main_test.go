package pglog_test

import (
	"testing"

	"github.com/agui-go/agui/internal/pgtest"
)

// pg is the test binary's postgres: each test gets a database of its own.
var pg = pgtest.NewShared()

func TestMain(m *testing.M) { pg.Main(m) }
