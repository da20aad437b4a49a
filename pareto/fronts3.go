package pareto

import "slices"

// Three objectives, by the fronts' staircases. The distinct points are
// visited in lexicographic order, best first (the order of the divide and
// conquer, jfb.go): a point can only be dominated by a point visited
// before it, and among those, q dominates p exactly when q is at least as
// good as p on objectives 1 and 2. So each front keeps the staircase of its
// members visited so far on those two objectives, and p's rank is the
// first front whose staircase has no point at least as good as p on both:
// the fronts that dominate p are a prefix (a point of front r+1 that
// dominates p is dominated by a point of front r, visited before it), so
// a binary search over the fronts finds it. O(n log(fronts) log(n)) time,
// O(n) memory.

// stair is a point of a staircase: its dense ranks on objectives 1 and 2,
// 0 being the best value.
type stair struct{ y, z int32 }

// staircase is the set of the points of a front visited so far that no
// other of them is at least as good as on both y and z: ordered by y
// ascending, z is then descending. The points are kept in blocks of at
// most block (>= 2), in order, so that inserting one does not move them
// all.
type staircase struct {
	blocks [][]stair
	firstY []int32 // firstY[b] is blocks[b][0].y
	block  int
}

// dominates reports whether some point of s is at least as good as (y, z)
// on both: the last point of y <= the given y has the smallest z of them.
func (s *staircase) dominates(y, z int32) bool {
	b := lastAtMost(s.firstY, y)
	if b < 0 {
		return false
	}
	blk := s.blocks[b]
	j := firstStairAtLeast(blk, y+1) - 1 // the last of y <= the given y
	return blk[j].z <= z
}

// insert adds (y, z), which no point of s dominates, in place of the
// points it dominates: those of y >= its y and z >= its z, a run (z
// descends) from the first point of y >= its y. free holds blocks to
// reuse, and takes those emptied.
func (s *staircase) insert(y, z int32, free *[][]stair) {
	p := stair{y, z}
	if len(s.blocks) == 0 {
		s.blocks = append(s.blocks, append(newBlock(free, s.block), p))
		s.firstY = append(s.firstY, y)
		return
	}
	// The first point of y >= the given y is at j in block b.
	b := max(lastAtMost(s.firstY, y-1), 0)
	j := firstStairAtLeast(s.blocks[b], y)
	if j == len(s.blocks[b]) && b+1 < len(s.blocks) {
		b, j = b+1, 0
	}
	blk := s.blocks[b]
	k := j
	for k < len(blk) && blk[k].z >= z {
		k++
	}
	switch {
	case k > j && (k < len(blk) || b+1 == len(s.blocks)):
		// The run ends in this block: p takes its first place.
		blk[j] = p
		s.blocks[b] = append(blk[:j+1], blk[k:]...)
	case k > j:
		// The run goes on past this block, into the next ones.
		s.blocks[b] = append(blk[:j], p)
		s.dropPrefixes(b+1, z, free)
	default:
		s.insertAt(b, j, p, free)
	}
	s.firstY[b] = s.blocks[b][0].y
}

// dropPrefixes removes, from block b on, the points of z >= the given z
// at the start of the blocks, until a block keeps one.
func (s *staircase) dropPrefixes(b int, z int32, free *[][]stair) {
	for b < len(s.blocks) {
		blk := s.blocks[b]
		k := 0
		for k < len(blk) && blk[k].z >= z {
			k++
		}
		if k < len(blk) {
			s.blocks[b] = append(blk[:0], blk[k:]...)
			s.firstY[b] = s.blocks[b][0].y
			return
		}
		*free = append(*free, blk[:0])
		s.blocks = append(s.blocks[:b], s.blocks[b+1:]...)
		s.firstY = append(s.firstY[:b], s.firstY[b+1:]...)
	}
}

// insertAt inserts p at position j of block b, first splitting the block
// in two halves when it is full.
func (s *staircase) insertAt(b, j int, p stair, free *[][]stair) {
	blk := s.blocks[b]
	if half := s.block / 2; len(blk) >= s.block {
		right := append(newBlock(free, s.block), blk[half:]...)
		s.blocks[b] = blk[:half]
		s.blocks = slices.Insert(s.blocks, b+1, right)
		s.firstY = slices.Insert(s.firstY, b+1, right[0].y)
		if j > half {
			b, j = b+1, j-half
		}
		blk = s.blocks[b]
	}
	s.blocks[b] = slices.Insert(blk, j, p)
	s.firstY[b] = s.blocks[b][0].y
}

// newBlock returns an empty block with room for block points, from free
// when it has one.
func newBlock(free *[][]stair, block int) []stair {
	if n := len(*free); n > 0 {
		blk := (*free)[n-1]
		*free = (*free)[:n-1]
		return blk[:0]
	}
	return make([]stair, 0, block)
}

// reset empties s, giving its blocks to free, for blocks of at most block
// points.
func (s *staircase) reset(free *[][]stair, block int) {
	for _, blk := range s.blocks {
		*free = append(*free, blk[:0])
	}
	s.blocks, s.firstY, s.block = s.blocks[:0], s.firstY[:0], block
}

// lastAtMost returns the index of the last element of a, ascending, that
// is <= v, or -1.
//
// Like firstStairAtLeast, it halves the range without a branch on the
// comparison: the sign of a difference, as a mask, says whether to move
// (the compiler keeps a branch for an if in a loop). The sweep of
// rankStairs3 spends most of its time in these searches, whose comparisons
// a processor cannot predict: without the branches, it took 20% less time.
func lastAtMost(a []int32, v int32) int {
	if len(a) == 0 {
		return -1
	}
	base, n := 0, len(a)
	for n > 1 {
		half := n / 2
		// base += half if a[base+half] <= v, by a mask: -1 or 0.
		base += half &^ int((int64(v)-int64(a[base+half]))>>63)
		n -= half
	}
	if a[base] <= v {
		return base
	}
	return base - 1
}

// firstStairAtLeast returns the index of the first point of blk, by y
// ascending, of y >= the given y, or len(blk).
func firstStairAtLeast(blk []stair, y int32) int {
	if len(blk) == 0 {
		return 0
	}
	base, n := 0, len(blk)
	for n > 1 {
		half := n / 2
		// base += half if blk[base+half].y < y, by a mask: -1 or 0.
		base += half & int((int64(blk[base+half].y)-int64(y))>>63)
		n -= half
	}
	if blk[base].y < y {
		return base + 1
	}
	return base
}

// rankStairs3 ranks the points of three objectives whose dense ranks are
// cols (column-major, n rows), the distinct ones being rep in
// lexicographic order, best first, and posOf[i] point i's position in
// rep, the staircases' blocks holding at most block >= 2 points: see the
// comment at the top of this file.
func (r *Ranker) rankStairs3(dst []int, cols, rep, posOf []int32, n, block int) int {
	ys, zs := cols[n:2*n], cols[2*n:3*n]
	rank := grow(r.rankOfPos, len(rep))
	r.rankOfPos = rank
	fronts := r.stairFronts
	for k := range fronts {
		fronts[k].reset(&r.freeBlocks, block)
	}
	// The points in the order of the sweep, gathered beforehand: loads
	// that do not wait on the sweep's unpredictable branches overlap.
	points := grow(r.stairsInOrder, len(rep))
	r.stairsInOrder = points
	for p, i := range rep {
		points[p] = stair{ys[i], zs[i]}
	}
	nf := 0
	for p, pt := range points {
		y, z := pt.y, pt.z
		lo, hi := 0, nf
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if fronts[mid].dominates(y, z) {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == nf {
			if nf == len(fronts) {
				fronts = append(fronts, staircase{block: block})
			}
			nf++
		}
		fronts[lo].insert(y, z, &r.freeBlocks)
		rank[p] = int32(lo)
	}
	r.stairFronts = fronts
	for i := range n {
		dst[i] = int(rank[posOf[i]])
	}
	return nf
}
