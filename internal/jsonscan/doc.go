// Package jsonscan holds the loaders' JSON machinery: a checker that
// agrees with encoding/json's Valid, but for holding strings to UTF-8, and
// is several times faster, the one
// loop over an object's members (Object) that the checker and the loaders'
// general path share, a walker over text already checked, number and integer
// parsing in one pass over the digits, the rewriting of Python's NaN and
// Infinity tokens into markers, and readable syntax errors; and the count
// of an array's elements as it is checked (Len), which the expressions'
// jsonLen reads a record's nested value with.
//
// It knows nothing of trajectories: the loaders read those from the
// members it finds.
package jsonscan
