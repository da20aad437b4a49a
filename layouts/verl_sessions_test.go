package layouts

import "testing"

// TestVerlSessionOf: a V1 key is taken apart as verl's
// key.rsplit("_", 2) with int(index) does; a key of another form is none.
func TestVerlSessionOf(t *testing.T) {
	for _, c := range []struct {
		key     string
		session string
		index   int
		ok      bool
	}{
		{"3f2a1c9b-aaaa-4bbb-8ccc-dddddddddddd_2_0", "3f2a1c9b-aaaa-4bbb-8ccc-dddddddddddd_2", 0, true},
		{"p_q_r_1_12", "p_q_r_1", 12, true},
		{"uid_0", "", 0, false},
		{"uid", "", 0, false},
		{"uid_0_x", "", 0, false},
		{"uid_0_-1", "", 0, false},
	} {
		session, index, ok := verlSessionOf(c.key)
		if session != c.session || index != c.index || ok != c.ok {
			t.Errorf("%q: %q %d %v, want %q %d %v", c.key, session, index, ok, c.session, c.index, c.ok)
		}
	}
}
