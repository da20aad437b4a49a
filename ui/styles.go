package ui

// Styles holds every lipgloss style of the dashboard, built once for the
// terminal's background (dark or light) and colour profile.
type Styles struct{}
