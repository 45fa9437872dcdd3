// Package tui is the workbench: the one Bubble Tea model that routes keys,
// runs long work through the engine's event streams and draws the views.
package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/views"
)

// Config names the files the workbench opens with.
type Config struct {
	Train, Valid, Test, Costs string
}

// Model is the root model of the workbench.
type Model struct {
	cfg           Config
	ctx           context.Context
	width, height int
	styles        views.Styles
	screen        views.DataScreen
}

// New returns the workbench model for cfg; ctx cancels its background work.
func New(ctx context.Context, cfg Config, styles views.Styles) Model {
	return Model{cfg: cfg, ctx: ctx, width: 80, height: 24, styles: styles, screen: views.DataScreen{
		Loading:  cfg.Train,
		Costs:    cfg.Costs,
		HelpLine: "q quit",
	}}
}

type loadedMsg struct {
	splits []data.Summary
	err    error
}

type tickMsg struct{}

func tick() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{} })
}

// load reads the data sets off the UI goroutine.
func (m Model) load() tea.Msg {
	var out []data.Summary
	var costs *data.Costs
	for i, name := range []string{m.cfg.Train, m.cfg.Valid, m.cfg.Test} {
		if name == "" {
			continue
		}
		d, err := data.LoadDataset(m.ctx, name, data.ReadOptions{})
		if err != nil {
			return loadedMsg{err: err}
		}
		d.Name = name
		if i == 0 {
			if m.cfg.Costs == "" {
				costs = data.UniformCosts(d.NumFeatures())
			} else if costs, err = data.LoadCosts(m.cfg.Costs, d.NumFeatures()); err != nil {
				return loadedMsg{err: err}
			}
		}
		out = append(out, data.Summarize(d, costs))
	}
	return loadedMsg{splits: out}
}

// Init starts loading the data.
func (m Model) Init() tea.Cmd { return tea.Batch(m.load, tick()) }

// Update handles one message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch msg.String() {
		case "q", "ctrl+c", "esc":
			return m, tea.Quit
		}
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case loadedMsg:
		m.screen.Loading = ""
		m.screen.Splits = msg.splits
		if msg.err != nil {
			m.screen.Err = msg.err.Error()
		}
	case tickMsg:
		if m.screen.Loading != "" {
			m.screen.Frame++
			return m, tick()
		}
	}
	return m, nil
}

// View draws the screen.
func (m Model) View() string {
	return views.RenderDataScreen(m.screen, m.width, m.height, m.styles)
}

// Run opens the workbench on the terminal until the user quits or ctx ends.
func Run(ctx context.Context, cfg Config) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := tea.NewProgram(New(ctx, cfg, views.DefaultStyles()), tea.WithAltScreen(), tea.WithContext(ctx))
	_, err := p.Run()
	if err == tea.ErrProgramKilled && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
