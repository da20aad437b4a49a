package common

import "charm.land/bubbles/v2/key"

// PairHelp returns b (enabled as it is) under the help of a pair of keys,
// or under a shorter help.
func PairHelp(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}
