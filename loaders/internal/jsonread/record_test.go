package jsonread

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
	"github.com/rewardlens/rewardlens/internal/jsontest"
)

// randomTrajectoryLine returns a JSON object shaped like a trajectory, with
// random white space, duplicate and escaped keys, and odd metadata.
func randomTrajectoryLine(rng *rand.Rand) string {
	var b strings.Builder
	ws := func() {
		for rng.IntN(5) == 0 {
			b.WriteByte(" \t"[rng.IntN(2)])
		}
	}
	b.WriteByte('{')
	keys := []string{`"id"`, `"group"`, `"batch"`, `"step_count"`, `"response"`, `"done"`, `"metadata"`, `"meta\u0064ata"`, `"other"`}
	for i, n := 0, rng.IntN(9); i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		ws()
		key := keys[rng.IntN(len(keys))]
		b.WriteString(key)
		ws()
		b.WriteByte(':')
		ws()
		switch {
		case strings.Contains(key, "meta") && rng.IntN(5) > 0:
			b.WriteByte('{')
			for j, m := 0, rng.IntN(4); j < m; j++ {
				if j > 0 {
					b.WriteByte(',')
				}
				ws()
				b.WriteString([]string{`"a"`, `"b"`, `"a\"b"`, `"é"`}[rng.IntN(4)])
				ws()
				b.WriteByte(':')
				jsontest.Value(rng, &b, 1)
			}
			ws()
			b.WriteByte('}')
		default:
			jsontest.Value(rng, &b, 2)
		}
		ws()
	}
	b.WriteByte('}')
	return b.String()
}

// TestRecordedMembersMatchWalk checks that an objectRecord judges validity
// as json.Valid does, with UTF-8 required, and records what the walker finds, and that a
// trajectory read from the record is the one read by walking.
func TestRecordedMembersMatchWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var rec objectRecord
	var in interner
	for range 50_000 {
		line := []byte(randomTrajectoryLine(rng))
		if rng.IntN(10) == 0 && len(line) > 0 { // corrupt a few
			line[rng.IntN(len(line))] = "{}[],:\"x"[rng.IntN(8)]
		}
		if got, want := rec.scan(line), json.Valid(line) && utf8.Valid(line); got != want {
			t.Fatalf("scan(%s) = %v, json.Valid and UTF-8 say %v", line, got, want)
		}
		walked, werr := DecodeObject(line)
		recorded, rerr := decodeObjectRecord(line, &rec)
		if (werr == nil) != (rerr == nil) || (werr != nil && *werr != *rerr) {
			t.Fatalf("%s: errors %v and %v", line, werr, rerr)
		}
		if werr != nil {
			continue
		}
		if recorded.recorded != nil {
			var want []member
			for k, v := range jsonscan.Members(walked.obj) {
				want = append(want, member{k, v})
			}
			if fmt.Sprint(want) != fmt.Sprint(recorded.recorded) {
				t.Fatalf("%s: recorded %q, walked %q", line, recorded.recorded, want)
			}
		}
		tw := scoring.Trajectory{Metadata: map[string]any{}}
		tr := scoring.Trajectory{Metadata: map[string]any{}}
		recorded.in = &in
		errw, errr := walked.trajectory(&tw), recorded.trajectory(&tr)
		if fmt.Sprint(errw) != fmt.Sprint(errr) || brief(tw) != brief(tr) {
			t.Fatalf("%s:\n walked   %s %v\n recorded %s %v", line, brief(tw), errw, brief(tr), errr)
		}
	}
}

// TestFieldSlots checks that the names of the fields have slots of their
// own in fieldSlots, and that fieldIndex finds them and nothing else.
func TestFieldSlots(t *testing.T) {
	for i, f := range trajectoryFields {
		if got := fieldSlots[fieldSlot(f.name)]; int(got) != i {
			t.Errorf("the slot of %q holds %d, not its index %d", f.name, got, i)
		}
		if got := fieldIndex([]byte(f.name)); got != i {
			t.Errorf("fieldIndex(%q) = %d, want %d", f.name, got, i)
		}
	}
	for _, name := range []string{"", "i", "ID", "jc", "batc", "batchx", "metadat", "metadatb", "step_coun", "response "} {
		if got := fieldIndex([]byte(name)); got != -1 {
			t.Errorf("fieldIndex(%q) = %d, want -1", name, got)
		}
	}
}
