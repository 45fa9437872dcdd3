package views

import "github.com/charmbracelet/lipgloss"

// Styles is the one set of styles passed down to every view.
type Styles struct {
	Title, Heading, Dim, Value, Error, Bar lipgloss.Style
	Border                                 lipgloss.Style
}

// DefaultStyles returns the workbench styles. Colours come through
// lipgloss, which drops them when the terminal has none or NO_COLOR is set.
func DefaultStyles() Styles {
	return Styles{
		Title:   lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("213")),
		Heading: lipgloss.NewStyle().Bold(true),
		Dim:     lipgloss.NewStyle().Faint(true),
		Value:   lipgloss.NewStyle().Foreground(lipgloss.Color("86")),
		Error:   lipgloss.NewStyle().Foreground(lipgloss.Color("203")).Bold(true),
		Bar:     lipgloss.NewStyle().Foreground(lipgloss.Color("69")),
		Border:  lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1),
	}
}

// PlainStyles renders without any escape sequence (golden files, NO_COLOR).
func PlainStyles() Styles {
	p := lipgloss.NewStyle()
	return Styles{Title: p, Heading: p, Dim: p, Value: p, Error: p, Bar: p,
		Border: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)}
}
