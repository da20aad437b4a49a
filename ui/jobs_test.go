package ui

import (
	"runtime"
	"testing"
	"weak"

	tea "charm.land/bubbletea/v2"
)

// TestJobDoneLetsGoOfTheJob: once a job's message lands, the dashboard
// holds nothing the job held (a tab's working buffers, lent to it), so
// that a tab that let go of them frees them; the jobs still under way
// stay recorded.
func TestJobDoneLetsGoOfTheJob(t *testing.T) {
	m := newTestModel(t, 120, 40)
	type lent struct{ buf [1 << 16]float64 }
	type done struct{}
	var held [3]weak.Pointer[lent]
	for k := range held {
		buf := new(lent)
		held[k] = weak.Make(buf)
		m.lastJob++
		m.jobs = append(m.jobs, tabJob{id: m.lastJob, tab: 1, run: func() tea.Msg { buf.buf[0]++; return done{} }})
	}
	first := m.jobs[0].id
	m.jobDone(jobDoneMsg{id: first + 2, tab: 1, msg: done{}}) // the last recorded
	m.jobDone(jobDoneMsg{id: first, tab: 1, msg: done{}})
	runtime.GC()
	if held[0].Value() != nil || held[2].Value() != nil {
		t.Errorf("after their messages landed, jobs' buffers are still reachable: first %v, last %v", held[0].Value() != nil, held[2].Value() != nil)
	}
	if len(m.jobs) != 1 || m.jobs[0].id != first+1 || held[1].Value() == nil {
		t.Errorf("the job under way: recorded %v, its buffers reachable %v", m.jobs, held[1].Value() != nil)
	}
}
