package sandbox

import (
	"fmt"
	"regexp"
	"strconv"
)

// torchNumberName is the builtin that reads the text torch writes for a
// number held in a 0-d tensor.
const torchNumberName = "torchNumber"

// torchScalarText is str() of a 0-d torch tensor of a number: the number
// as torch's formatter prints it (an integer "3", a float with its point
// "-1." or four decimals "0.5000", scientific "-1.0000e-05", "nan", "inf"),
// then, off the default device and dtype, ", device='cuda:0'" and
// ", dtype=torch.float64" in that order (torch/_tensor_str.py,
// _str_intern). Python's json.dumps(default=str), with which verl writes
// its rollout dumps, leaves a tensor in this form.
var torchScalarText = regexp.MustCompile(`^tensor\((-?[0-9]+(?:\.[0-9]*)?(?:e[+-][0-9]+)?|nan|-?inf)(?:, device='[^']*')?(?:, dtype=torch\.[a-z0-9]+)?\)$`)

// torchNumber is the builtin torchNumber(v): a number as it is, and the
// text of a 0-d tensor (torchScalarText) as the number it shows, "nan"
// and "inf" included (which make the objective NaN or infinite). The text
// is what torch printed: a float32 tensor's four decimals, so a value that
// needs more reads rounded. A null or absent value is nil, so that the
// objective is missing as the value read plainly would be. Any other value
// is an error.
func torchNumber(params ...any) (any, error) {
	switch v := params[0].(type) {
	case float64:
		return v, nil
	case int:
		return float64(v), nil
	case string:
		m := torchScalarText.FindStringSubmatch(v)
		if m == nil {
			return nil, fmt.Errorf("%s: %q is not a number nor the text of a 0-d tensor", torchNumberName, v)
		}
		return strconv.ParseFloat(m[1], 64) // "nan", "inf" and "-inf" too
	case nil:
		return nil, nil
	}
	return nil, fmt.Errorf("%s: want a number or the text of a 0-d tensor, got %T", torchNumberName, params[0])
}

// TorchNumber is the builtin torchNumber for Go callers: v as a number,
// or an error (a null or absent v too).
func TorchNumber(v any) (float64, error) {
	x, err := torchNumber(v)
	if err != nil {
		return 0, err
	}
	if x == nil {
		return 0, fmt.Errorf("%s: missing", torchNumberName)
	}
	return x.(float64), nil
}
