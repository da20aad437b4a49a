package scoring

// RowCap is what a cap on the rows read (--max-rows) did to the last
// group read: the loaders tell it (loaders.Result.RowCap), the checks
// that leave out the group it cut read it (agreement.CutGroupOf).
type RowCap uint8

const (
	// Uncapped: every row was read.
	Uncapped RowCap = iota
	// CappedUntold: the reading stopped at a number of rows, and nothing
	// told whether the first row not read continued the last group read.
	CappedUntold
	// CappedInGroup: the first row not read had the Batch and Group of
	// the last row read: the cap cut that group.
	CappedInGroup
	// CappedBetweenGroups: the first row not read had another Batch or
	// Group: the cap fell after the last group read, which is whole as
	// far as the rows of a group follow each other.
	CappedBetweenGroups
)

// WithSources is c as it holds with sources (--source-by): one group
// value may be two sources' groups, so a row of the last group's value
// does not tell that the cap cut it (CappedUntold).
func (c RowCap) WithSources(sources bool) RowCap {
	if c == CappedInGroup && sources {
		return CappedUntold
	}
	return c
}
