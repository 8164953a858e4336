//go:build !race

package dojo_test

const raceEnabled = false
