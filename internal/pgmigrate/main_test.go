package pgmigrate_test

import (
	"testing"

	"github.com/agui-go/agui/internal/pgtest"
)

var pg = pgtest.NewShared()

func TestMain(m *testing.M) { pg.Main(m) }
