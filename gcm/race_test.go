//go:build race

package gcm

const raceEnabled = true
