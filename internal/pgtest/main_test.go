package pgtest

import "testing"

var shared = NewShared()

func TestMain(m *testing.M) { shared.Main(m) }
