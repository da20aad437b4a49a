package steps

import (
	"math"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestStepsFeasibleShare: with constraints the tab charts the feasible
// share of each batch, counted here from the raw values, and with
// several constraints each one's share; without constraints neither.
func TestStepsFeasibleShare(t *testing.T) {
	constraints := []string{"safety >= 0.95", "length <= 0.9"}
	s := uitest.SampleSessionWith(t, func(cfg *engine.Config) { cfg.Constraints = constraints })
	tab := uitest.TabOn(s, New).(*stepsTab)
	series := map[string][]float64{}
	for _, sr := range tab.series {
		series[sr.title] = sr.values
	}
	ev := s.Result.Evaluation
	holds := []func(i int) bool{
		func(i int) bool { return ev.Values[i*ev.M+1] >= 0.95 },
		func(i int) bool { return ev.Values[i*ev.M+2] <= 0.9 },
	}
	titles := []string{"share meeting safety >= 0.95", "share meeting length <= 0.9"}
	somewhere := false
	for b, batch := range s.Result.Ranking.Batches {
		var valid, all float64
		each := make([]float64, len(holds))
		for _, i := range batch.Members {
			if !ev.Valid[i] {
				continue
			}
			valid++
			both := true
			for c, h := range holds {
				if h(i) {
					each[c]++
				} else {
					both = false
				}
			}
			if both {
				all++
			}
		}
		if got := series["feasible share"]; len(got) <= b || math.Abs(got[b]-all/valid) > 1e-12 {
			t.Fatalf("batch %d: the feasible share is %v, want %v", b, got, all/valid)
		}
		somewhere = somewhere || (all > 0 && all < valid)
		for c, title := range titles {
			if got := series[title]; len(got) <= b || math.Abs(got[b]-each[c]/valid) > 1e-12 {
				t.Fatalf("batch %d: %q is %v, want %v", b, title, got, each[c]/valid)
			}
		}
	}
	if !somewhere {
		t.Error("no batch is partly feasible: the test shows nothing")
	}
	if v := uitest.Plain(tab); !strings.Contains(v, "feasible share") {
		t.Errorf("the tab does not chart the feasible share:\n%s", v)
	}
	plain, _ := uitest.SampleTab(t, New)
	for _, sr := range plain.(*stepsTab).series {
		if strings.Contains(sr.title, "feasible") || strings.Contains(sr.title, "share meeting") {
			t.Errorf("without constraints the tab charts %q", sr.title)
		}
	}
}
