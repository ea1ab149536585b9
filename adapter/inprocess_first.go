package adapter

// InProcessSpeaking is InProcess for a SUT that speaks first: the outputs
// first are queued before any input, as the outputs a SUT process writes
// when it starts (a controller that begins with a request). Quiescence
// stays exact.
func InProcessSpeaking(sut SUT, first ...Output) Adapter {
	return &inProcess{sut: sut, pending: append([]Output(nil), first...)}
}
