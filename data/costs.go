package data

// Costs holds the extraction cost of every feature (0-based index).
type Costs struct {
	Cost      []float64 // one per feature
	Name      []string  // optional feature names ("" when the file gave none)
	Defaulted []int     // features the file gave no cost for; they cost 1
}

// CostGroup is a set of features with the same cost.
type CostGroup struct {
	Cost     float64
	Features []int // 0-based, ascending
}

// Groups returns the distinct costs in ascending order, each with its features.
func (c *Costs) Groups() []CostGroup { panic("TODO") }
