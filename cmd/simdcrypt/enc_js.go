package main

// On js/wasm the runtime delivers no signals, and os/signal.Ignored panics
// when asked about one: enc watches none there.
func init() { stopSignals = nil }
