package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestOpenSettingsError: data the settings do not fit (no number to infer
// an objective from, a weight of no objective) fails Open with a
// SettingsError, which the CLI exits with status 2 on; the first names
// the record.
func TestOpenSettingsError(t *testing.T) {
	text := `{"group":"g","metadata":{"note":"x"}}` + "\n"
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  setup.Config
		want string
	}{
		{setup.Config{}, "run.jsonl:1: no objective to score"},
		{setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.note"}}, Weights: map[string]float64{"b": 1}}, `unknown objective "b"`},
	} {
		_, err := Open("run.jsonl", tc.cfg, res, nil)
		var settings SettingsError
		if !errors.As(err, &settings) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: Open failed with %v (%T), want a SettingsError saying %q", tc.cfg, err, err, tc.want)
		}
	}
}

// TestOpenWarnsOfMixedPrompts: in a trainer's layout (EqualGroups), a
// group whose rows answer two prompts is warned of in the status line's
// warnings, as compute and stats warn of it; without a layout it is not.
func TestOpenWarnsOfMixedPrompts(t *testing.T) {
	text := `{"group":"g0","metadata":{"p":"a","r":1}}` + "\n" + `{"group":"g0","metadata":{"p":"b","r":0}}` + "\n" +
		`{"group":"g1","metadata":{"p":"c","r":1}}` + "\n" + `{"group":"g1","metadata":{"p":"c","r":0}}` + "\n"
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "r", Expr: "metadata.r"}}, PromptBy: "metadata.p", EqualGroups: true}
	const want = `1 group of more than one prompt (prompt_by metadata.p): step 0, group "g0" (2 prompts in 2 rows)`
	for _, equal := range []bool{true, false} {
		cfg.EqualGroups = equal
		s, err := Open("run.jsonl", cfg, res, nil)
		if err != nil {
			t.Fatal(err)
		}
		warned := slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.HasPrefix(w, want) })
		if warned != equal {
			t.Errorf("EqualGroups %v: warnings %q, want %q: %v", equal, s.Warnings, want, equal)
		}
	}
}

// TestOpenCutsDuplicateIDs: the status line's warning of repeated IDs
// names each cut to its first textsafe.ShortRunes runes, as stderr's
// does: an ID may be a whole prompt.
func TestOpenCutsDuplicateIDs(t *testing.T) {
	long := strings.Repeat("p", 5000)
	text := fmt.Sprintf(`{"id":%q,"metadata":{"x":1}}`+"\n"+`{"id":%q,"metadata":{"x":2}}`+"\n", long, long)
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open("run.jsonl", setup.Config{}, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `1 trajectory repeats an earlier one's ID ("` + strings.Repeat("p", textsafe.ShortRunes) + `"…); each is computed`
	if !slices.Contains(s.Warnings, want) {
		t.Errorf("warnings %q, want %q among them", s.Warnings, want)
	}
}

// TestFollowedOpenNotesItsIDs: a session opened to be followed
// (Builder.Follow) warns of its repeated IDs in the words and counts of
// one opened otherwise, from the pass that notes its IDs for the updates
// (FollowedIDs), whose repeats then count the opening's.
func TestFollowedOpenNotesItsIDs(t *testing.T) {
	text := ""
	for i, id := range []string{"a", "b", "a", "c", "a", "b"} {
		text += fmt.Sprintf(`{"id":%q,"batch":0,"metadata":{"x":%d}}`+"\n", id, i)
	}
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opened, err := Open("run.jsonl", setup.Config{}, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBuilder(setup.Config{}, false)
	b.Follow()
	if err := b.Add(res.Trajectories); err != nil {
		t.Fatal(err)
	}
	followed := b.Session("run.jsonl", res, nil)
	const want = `3 trajectories repeat an earlier one's ID ("a", "b"); each is computed`
	if !slices.Contains(opened.Warnings, want) || !slices.Equal(followed.Warnings, opened.Warnings) {
		t.Errorf("followed, warnings %q; opened otherwise %q; want %q among both", followed.Warnings, opened.Warnings, want)
	}
	if opened.FollowedIDs != nil {
		t.Error("a session not to be followed noted its IDs")
	}
	if followed.FollowedIDs == nil {
		t.Fatal("the session to be followed did not note its IDs")
	}
	again := []scoring.Trajectory{{ID: "c", Batch: 1}}
	followed.FollowedIDs.Add(again)
	if w, want := followed.FollowedIDs.TakeWarning(), `1 trajectory repeats an earlier one's ID ("c") at step 1; 4 so far; each is computed`; w != want {
		t.Errorf("an update re-logging an ID: %q, want %q", w, want)
	}
}
