package layouts

import (
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
)

// peekRows bounds what a layout's defaults read of the first file (a
// shard can hold ten thousand records, each with its tokens): its first
// groups tell what the layout needs.
const peekRows = 1024

// firstRecords is the first file's first peekRows records, read in its
// format, at most once and only when asked for: what a layout's defaults
// look at beyond the first record's fields (verl's score, TRL's null
// columns, open-instruct's normalisation and pass threshold).
type firstRecords struct {
	first  loaders.FileFields
	read   bool
	loaded []scoring.Trajectory
}

// newFirstRecords returns the first records of first, not read yet.
func newFirstRecords(first loaders.FileFields) *firstRecords {
	return &firstRecords{first: first}
}

// records returns the records, reading them the first time (standard
// input's, read already, as loaders.PeekStdin kept them); none when the
// first file has no path or cannot be read (its load later says why).
func (p *firstRecords) records() []scoring.Trajectory {
	if p.first.Path == "-" {
		return p.first.Records
	}
	if !p.read && p.first.Path != "" {
		data, err := loaders.Load([]string{p.first.Path}, loaders.Options{Format: p.first.Format, SkipInvalid: true, MaxRows: peekRows})
		if err == nil {
			p.loaded = data.Trajectories
		}
	}
	p.read = true
	return p.loaded
}
