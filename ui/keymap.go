package ui

import (
	"strconv"

	"charm.land/bubbles/v2/key"

	"github.com/rewardlens/rewardlens/ui/common"
)

// keyMap is the global keymap: the keys the root model handles before any
// tab sees them. The weight-editing keys are enabled only while editing
// weights, and w only outside it, so that the help always lists what works.
type keyMap struct {
	Tab        key.Binding // 1 to the number of tabs
	NextTab    key.Binding
	PrevTab    key.Binding
	NextMethod key.Binding
	PrevMethod key.Binding
	Scope      key.Binding
	Normalize  key.Binding
	PrevBatch  key.Binding
	NextBatch  key.Binding
	Follow     key.Binding // back to the newest batch, in follow mode
	Export     key.Binding // the current batch's rewards to a file
	Save       key.Binding // the settings to a config file
	Find       key.Binding // a trajectory by id, on the Trajectories tab

	// FilterGroups toggles DAPO's group filter, with --filter-groups.
	FilterGroups key.Binding

	EditWeights    key.Binding
	PrevObjective  key.Binding
	NextObjective  key.Binding
	IncreaseWeight key.Binding
	DecreaseWeight key.Binding
	// TypeWeight opens a text input for the selected weight's value.
	TypeWeight  key.Binding
	DoneWeights key.Binding
	// ObjectiveNorm cycles the objective normalisation
	// (--normalize-objectives) while editing weights.
	ObjectiveNorm key.Binding
	// The constraints', gates' and penalty's keys while editing weights
	// (structure_editor.go).
	AddConstraint   key.Binding
	AddGate         key.Binding
	SelectStructure key.Binding
	EditStructure   key.Binding
	RemoveStructure key.Binding
	EditPenalty     key.Binding
	// following is whether the dashboard follows a run: the footer and
	// the help then offer no key that changes the constraints or gates,
	// which the editor refuses.
	following bool

	Help key.Binding
	Quit key.Binding
}

// newKeyMap returns the global keymap of a dashboard of tabs tabs (at
// most 9): the digits 1 to tabs select them.
func newKeyMap(tabs int) keyMap {
	digits := make([]string, tabs)
	for i := range digits {
		digits[i] = strconv.Itoa(i + 1)
	}
	km := keyMap{
		Tab:        key.NewBinding(key.WithKeys(digits...), key.WithHelp("1-"+strconv.Itoa(tabs), "tab")),
		NextTab:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next tab")),
		PrevTab:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous tab")),
		NextMethod: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "next method")),
		PrevMethod: key.NewBinding(key.WithKeys("M"), key.WithHelp("M", "previous method")),
		Scope:      key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "scope")),
		Normalize:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "normalize")),
		PrevBatch:  key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous batch")),
		NextBatch:  key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next batch")),
		Follow:     key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "follow the newest batch"), key.WithDisabled()),
		Export:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export the batch's rewards")),
		Save:       key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save the settings")),
		Find:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "find a trajectory by id (the Trajectories filter; on Groups, a group by prompt or id)")),

		EditWeights:    key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "weights")),
		PrevObjective:  key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous objective")),
		NextObjective:  key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next objective")),
		IncreaseWeight: key.NewBinding(key.WithKeys("+"), key.WithHelp("+", "weight +0.05")),
		DecreaseWeight: key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "weight -0.05, below 0 too")),
		TypeWeight:     key.NewBinding(key.WithKeys("="), key.WithHelp("=", "type the weight (0.33, -1, 2; enter applies, esc cancels)")),
		DoneWeights:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "done")),
		ObjectiveNorm:  key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "objective normalisation: none, minmax, zscore, rank")),

		AddConstraint:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "add a constraint (EXPR)")),
		AddGate:         key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add a gate (NAME: EXPR)")),
		SelectStructure: key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "select a constraint or gate")),
		EditStructure:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "edit the constraint or gate")),
		RemoveStructure: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "remove the constraint or gate")),
		EditPenalty:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "penalty λ of score - λ × violation")),

		FilterGroups: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "group filter on/off: the batch without the zero-spread groups"), key.WithDisabled()),

		Help: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
	km.setWeightMode(false)
	return km
}

// setWeightMode enables the weight-editing keys, or w.
func (km *keyMap) setWeightMode(on bool) {
	km.EditWeights.SetEnabled(!on)
	for _, b := range km.editorKeys() {
		b.SetEnabled(on)
	}
}

// editorKeys are the keys of the weights editor, which it takes from the
// tab while it is open.
func (km *keyMap) editorKeys() []*key.Binding {
	return []*key.Binding{&km.PrevObjective, &km.NextObjective, &km.IncreaseWeight, &km.DecreaseWeight, &km.TypeWeight, &km.DoneWeights, &km.ObjectiveNorm,
		&km.AddConstraint, &km.AddGate, &km.SelectStructure, &km.EditStructure, &km.RemoveStructure, &km.EditPenalty}
}

// setBatches enables [ and ] only when there is another batch to go to.
func (km *keyMap) setBatches(n int) {
	km.PrevBatch.SetEnabled(n > 1)
	km.NextBatch.SetEnabled(n > 1)
}

// ShortHelp implements help.KeyMap: the footer shows each pair of keys
// (m/M, [/], ↑/↓, +/-) as one entry. The weight keys come first: they are
// enabled only while editing weights, when they matter most.
func (km keyMap) ShortHelp() []key.Binding {
	structure := common.PairHelp(km.AddConstraint, "c/a/p", "constraint/gate/λ")
	if km.following {
		structure = common.PairHelp(km.EditPenalty, "p", "λ")
	}
	return []key.Binding{
		common.PairHelp(km.PrevObjective, "↑/↓", "objective"),
		common.PairHelp(km.IncreaseWeight, "+/-", "±0.05"),
		common.PairHelp(km.TypeWeight, "=", "type"),
		common.PairHelp(km.ObjectiveNorm, "o", "norm"),
		structure,
		km.DoneWeights,
		km.Tab,
		common.PairHelp(km.NextMethod, "m/M", "method"),
		km.Scope,
		km.Normalize,
		common.PairHelp(km.NextBatch, "[/]", "batch"),
		common.PairHelp(km.Follow, "F", "follow"),
		km.EditWeights,
		common.PairHelp(km.Export, "e", "export"),
		common.PairHelp(km.Save, "ctrl+s", "save"),
		common.PairHelp(km.FilterGroups, "f", "filter"),
		km.Help,
		km.Quit,
	}
}

// FullHelp implements help.KeyMap. The help lists the keys enabled (the
// weights' while editing them, F with --follow), as the footer does;
// following, only the penalty's of the structure line's.
func (km keyMap) FullHelp() [][]key.Binding {
	structure := []key.Binding{km.AddConstraint, km.AddGate, km.SelectStructure, km.EditStructure, km.RemoveStructure, km.EditPenalty}
	if km.following {
		structure = []key.Binding{km.EditPenalty}
	}
	return [][]key.Binding{
		{km.Tab, km.NextTab, km.PrevTab},
		{km.NextMethod, km.PrevMethod, km.Scope, described(km.Normalize, "normalize (grpo: by the group's std, the batch's, none: TRL's scale_rewards)")},
		{km.PrevBatch, km.NextBatch, km.Follow, km.EditWeights, km.Export, km.Save, km.Find, km.FilterGroups},
		{km.PrevObjective, km.NextObjective, km.IncreaseWeight, km.DecreaseWeight, km.TypeWeight, km.ObjectiveNorm, km.DoneWeights},
		structure,
		{km.Help, km.Quit},
	}
}

// described returns b with desc as its help, for the full help where a
// key's few words in the footer leave out what it does.
func described(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
