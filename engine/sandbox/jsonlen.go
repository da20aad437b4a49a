package sandbox

import (
	"fmt"
	"unsafe"

	"github.com/rewardlens/rewardlens/internal/jsonscan"
)

// jsonLenName is the builtin that counts the elements of a JSON array, or
// the members of an object, held as text: a record's nested value, as
// expressions see it (open-instruct's response_tokens, a completion's
// token ids), without decoding it as fromJSON does, which builds an
// interface value per element.
const jsonLenName = "jsonLen"

// jsonLen is the builtin jsonLen(v): len(fromJSON(v)) for v the JSON text
// of an array or an object (an object's keys as written: a key given
// twice counts twice, where fromJSON keeps one), counted as the text is
// checked (jsonscan.Len), and len(v) for v an array; null is null. Any other
// value, or text that is not an array or object, is an error.
func jsonLen(params ...any) (any, error) {
	switch v := params[0].(type) {
	case nil:
		return nil, nil
	case []any:
		return len(v), nil
	case string:
		// jsonscan.Len only reads its argument: the string's bytes, not a
		// copy of them.
		if n, ok := jsonscan.Len(unsafe.Slice(unsafe.StringData(v), len(v))); ok {
			return n, nil
		}
		return nil, fmt.Errorf("%s: a string of %d bytes that is not the JSON text of an array nor an object", jsonLenName, len(v))
	default:
		return nil, fmt.Errorf("%s: want the JSON text of an array or object, found a %T", jsonLenName, v)
	}
}
