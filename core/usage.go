package core

// AddUsage records tokens the run spent. The run's terminal event,
// RUN_FINISHED or RUN_ERROR, carries every usage added, in order; none
// added omits the field. Safe for concurrent use, like every RunContext
// method.
func (rc *RunContext[S]) AddUsage(u TokenUsage) { rc.Emitter.s.addUsage(u) }

func (s *stream) addUsage(u TokenUsage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.usage = append(s.usage, u)
}

// usageSoFar returns a copy of the usage added so far.
func (s *stream) usageSoFar() []TokenUsage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.usage) == 0 {
		return nil
	}
	return append([]TokenUsage(nil), s.usage...)
}
