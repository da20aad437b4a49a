package chart

// WindowMargin is how much of a window's width may lie beyond the points,
// at each end (Window).
const WindowMargin = 0.05

// Window returns the window c ± h moved, not resized, so that no more of
// it than WindowMargin of its width lies below lo or above hi, the points'
// range, nor beyond the full view flo..fhi; where the points and their
// margins are narrower than the window, it is centred on them. So a
// zoomed view near 0 of an objective that is never negative shows no
// negative values, and a panned one no empty space.
//
// Preconditions: h > 0, lo <= hi, flo <= lo and hi <= fhi.
func Window(c, h, lo, hi, flo, fhi float64) (float64, float64) {
	lo, hi = max(lo-WindowMargin*2*h, flo), min(hi+WindowMargin*2*h, fhi)
	if hi-lo <= 2*h {
		c = (lo + hi) / 2
	} else {
		c = min(max(c, lo+h), hi-h)
	}
	return c - h, c + h
}
