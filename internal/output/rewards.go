// Package output writes what rewardlens produces in the formats of
// docs/CONTRACT.md (Output of compute):
// compute's JSON records, shared by the CLI and the dashboard's export, and
// files written atomically.
package output

import (
	"math"
	"strconv"

	"github.com/rewardlens/rewardlens/engine"
)

// AppendRewardJSON appends trajectory i's record, whose ID is id:
// {"id","batch","group","score","reward","pareto_rank","crowding","valid","objectives":{name: raw value}},
// with "source" after "group" when the trajectories are scored by source,
// "feasible" and "violation" after "valid" when the evaluation has
// constraints, then "logged_advantage" when it has the trainer's logged
// advantages (engine.Evaluation.Logged).
func AppendRewardJSON(buf []byte, id []byte, res *engine.Result, i int) []byte {
	buf = appendRecordHead(buf, id, res.Evaluation, i)
	buf = appendRecordRewards(buf, res, i, nil)
	return appendRecordObjectives(buf, res.Evaluation, i)
}

// AppendRewardJSONKept is AppendRewardJSON with "kept": kept[i] after the
// validity (and logged advantage): compute's record with --filter-groups,
// res being the result without the filter but its rewards.
func AppendRewardJSONKept(buf []byte, id []byte, res *engine.Result, kept []bool, i int) []byte {
	buf = appendRecordHead(buf, id, res.Evaluation, i)
	buf = appendRecordRewards(buf, res, i, kept)
	return appendRecordObjectives(buf, res.Evaluation, i)
}

// appendRecordHead appends the start of trajectory i's record, up to its
// group: what the evaluation alone sets.
func appendRecordHead(buf []byte, id []byte, ev *engine.Evaluation, i int) []byte {
	buf = append(buf, `{"id":`...)
	buf = AppendJSONString(buf, id)
	buf = append(buf, `,"batch":`...)
	buf = strconv.AppendInt(buf, ev.StepOf(i), 10)
	buf = append(buf, `,"group":`...)
	buf = AppendJSONString(buf, ev.GroupOf(i))
	if ev.HasSources() {
		buf = append(buf, `,"source":`...)
		buf = AppendJSONString(buf, ev.SourceOf(i))
	}
	return append(buf, ',')
}

// appendRecordRewards appends the middle of trajectory i's record, from its
// score to its validity (and "kept" when kept is not nil): what the
// options set.
func appendRecordRewards(buf []byte, res *engine.Result, i int, kept []bool) []byte {
	buf = append(buf, `"score":`...)
	buf = AppendJSONNumber(buf, res.Scores[i])
	buf = append(buf, `,"reward":`...)
	buf = AppendJSONNumber(buf, res.Rewards[i])
	buf = append(buf, `,"pareto_rank":`...)
	buf = strconv.AppendInt(buf, int64(res.Ranking.Ranks[i]), 10)
	buf = append(buf, `,"crowding":`...)
	if math.IsInf(res.Ranking.Crowding[i], 1) {
		buf = append(buf, `"inf"`...)
	} else {
		buf = AppendJSONNumber(buf, res.Ranking.Crowding[i])
	}
	buf = append(buf, `,"valid":`...)
	buf = strconv.AppendBool(buf, res.Evaluation.Valid[i])
	switch {
	case !res.Evaluation.HasConstraints():
	case !res.Evaluation.Valid[i]: // its constraints were not all evaluated, as its score
		buf = append(buf, `,"feasible":null,"violation":null`...)
	default:
		buf = append(buf, `,"feasible":`...)
		buf = strconv.AppendBool(buf, res.Evaluation.Feasible(i))
		buf = append(buf, `,"violation":`...)
		buf = AppendJSONNumber(buf, res.Evaluation.ViolationOf(i))
	}
	if res.Evaluation.Logged != nil {
		buf = append(buf, `,"logged_advantage":`...)
		buf = AppendJSONNumber(buf, res.Evaluation.Logged[i])
	}
	if kept != nil {
		buf = append(buf, `,"kept":`...)
		buf = strconv.AppendBool(buf, kept[i])
	}
	return append(buf, ',')
}

// appendRecordObjectives appends the end of trajectory i's record, its raw
// objective values: what the evaluation alone sets.
func appendRecordObjectives(buf []byte, ev *engine.Evaluation, i int) []byte {
	buf = append(buf, `"objectives":{`...)
	for k, o := range ev.Objectives {
		if k > 0 {
			buf = append(buf, ',')
		}
		buf = AppendJSONString(buf, o.Name)
		buf = append(buf, ':')
		if !ev.HasObjective(i, k) || ev.Missing(i, k) {
			buf = append(buf, "null"...) // another source's objective, or none in the record
			continue
		}
		buf = AppendJSONNumber(buf, ev.Row(i)[k])
	}
	return append(buf, "}}"...)
}

// AppendJSONNumber appends x as the shortest JSON number that reads back as
// x, or null when x is not finite.
func AppendJSONNumber(buf []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(buf, "null"...)
	}
	return appendShortest(buf, x)
}

// AppendJSONString appends s as MarshalJSON writes it. Plain printable
// ASCII without quotes or backslashes is written as is; anything else goes
// through MarshalJSON.
func AppendJSONString[S string | []byte](buf []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			b, _ := MarshalJSON(string(s), "") // a string always marshals
			return append(buf, b...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}
