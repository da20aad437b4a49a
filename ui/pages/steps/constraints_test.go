package steps

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestStepsFeasibleShare: with constraints the tab charts the feasible
// share of each batch, counted here from the raw values, and with
// several constraints each one's share; without constraints neither.
func TestStepsFeasibleShare(t *testing.T) {
	constraints := []string{"safety >= 0.95", "length <= 0.9"}
	s := uitest.SampleSessionWith(t, func(cfg *setup.Config) { cfg.Constraints = constraints })
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

// TestStepsSaysWhyNoHypervolume: the hypervolume is charted for 2 or 3
// objectives; with another count the legend says why it is absent.
func TestStepsSaysWhyNoHypervolume(t *testing.T) {
	for _, c := range []struct {
		objectives int
		note       string
	}{
		{3, ""},
		{4, "no hypervolume: it is computed for 2 or 3 objectives, not 4"},
		{1, "no hypervolume: it is computed for 2 or 3 objectives, not 1"},
	} {
		s := uitest.SampleSessionWith(t, func(cfg *setup.Config) {
			for len(cfg.Objectives) < c.objectives {
				o := cfg.Objectives[0]
				o.Name += strings.Repeat("2", len(cfg.Objectives))
				cfg.Objectives = append(cfg.Objectives, o)
			}
			cfg.Objectives = cfg.Objectives[:c.objectives]
			cfg.Weights = nil
		})
		tab := uitest.TabOn(s, New).(*stepsTab)
		tab.SetSize(200, 60)
		view := uitest.Plain(tab)
		charted := slices.ContainsFunc(tab.series, func(s stepSeries) bool { return s.title == "hypervolume" })
		noted := strings.Contains(view, "no hypervolume")
		if c.note == "" && (!charted || noted) || c.note != "" && (charted || !strings.Contains(view, c.note)) {
			t.Errorf("%d objectives: hypervolume charted %v, said absent %v, want the note %q:\n%s", c.objectives, charted, noted, c.note, view)
		}
	}
}
