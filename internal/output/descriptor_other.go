//go:build !unix

package output

import "os"

// openDescriptor is the unix one's: no path names a descriptor here.
func openDescriptor(string) (*os.File, bool, error) { return nil, false, nil }

// IsDescriptor is the unix one's: no path names a descriptor here.
func IsDescriptor(string) bool { return false }

// CheckDescriptor is the unix one's: no path names a descriptor here.
func CheckDescriptor(string) error { return nil }
