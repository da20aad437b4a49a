package jsonscan

import (
	"bytes"
	"iter"
)

// The functions here walk JSON text that encoding/json has already found
// valid, so they need not check anything (on invalid text they return
// nonsense, but stay within bounds).

// members yields the raw keys (quoted) and values of obj, a valid JSON
// object, in order, as slices of obj.
func Members(obj []byte) iter.Seq2[[]byte, []byte] {
	return func(yield func([]byte, []byte) bool) {
		i := 1 // past the "{"
		for {
			i += SkipSpace(obj[i:])
			if i >= len(obj) || obj[i] == '}' {
				return
			}
			if obj[i] == ',' {
				i++
				i += SkipSpace(obj[i:])
			}
			keyEnd := i + stringLen(obj[i:])
			key := obj[i:keyEnd]
			i = keyEnd + SkipSpace(obj[keyEnd:]) + 1 // past the ":"
			i = min(i+SkipSpace(obj[min(i, len(obj)):]), len(obj))
			valueEnd := i + valueLen(obj[i:])
			if !yield(key, obj[i:valueEnd]) {
				return
			}
			i = valueEnd
		}
	}
}

// stringLen returns the length of the JSON string that b starts with.
func stringLen(b []byte) int {
	i := 1
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		i += j
		// The quote closes the string unless an odd run of backslashes
		// escapes it (the opening quote ends any run).
		k := i
		for k > 1 && b[k-1] == '\\' {
			k--
		}
		if (i-k)%2 == 0 {
			return i + 1
		}
		i++
	}
}

// valueLen returns the length of the JSON value that b starts with.
func valueLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	switch b[0] {
	case '"':
		return stringLen(b)
	case '{', '[':
		return containerLen(b)
	}
	// A number or a literal: up to the next delimiter.
	for i, c := range b {
		if c == ',' || c == '}' || c == ']' || IsSpace(c) {
			return i
		}
	}
	return len(b)
}

// containerLen returns the length of the JSON object or array that b starts
// with.
func containerLen(b []byte) int {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i += stringLen(b[i:]) - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(b)
}
