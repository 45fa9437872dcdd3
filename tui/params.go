package tui

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/cronus-ltr/cronus/engine/cronus"
)

// The editable parameters, in the order of the params line.
const (
	parLambda = iota
	parK
	parEpsilon
	parSigma
	numParams
)

var paramNames = [numParams]string{"λ", "K", "ε", "σ"}

// paramValue formats parameter i of par.
func paramValue(par cronus.Params, i int) string {
	switch i {
	case parLambda:
		return strconv.FormatFloat(par.Lambda, 'g', 4, 64)
	case parK:
		return strconv.Itoa(par.K)
	case parEpsilon:
		return strconv.FormatFloat(par.Epsilon, 'g', 4, 64)
	default:
		return strconv.FormatFloat(par.Sigma, 'g', 4, 64)
	}
}

// stepParam moves parameter i one step up (dir > 0) or down: λ and σ by a
// factor 1.5, K by one, ε by 0.05. A step that would leave the valid range
// is refused.
func stepParam(par cronus.Params, i, dir int) (cronus.Params, error) {
	up := dir > 0
	switch i {
	case parLambda:
		if par.Lambda == 0 && up {
			par.Lambda = 0.001
		} else if up {
			par.Lambda *= 1.5
		} else {
			par.Lambda /= 1.5
		}
	case parK:
		par.K += dir
	case parEpsilon:
		par.Epsilon = math.Round((par.Epsilon+0.05*float64(dir))*1000) / 1000
	case parSigma:
		if up {
			par.Sigma *= 1.5
		} else {
			par.Sigma /= 1.5
		}
	}
	return par, checkParam(par, i)
}

// setParam parses s as the new value of parameter i.
func setParam(par cronus.Params, i int, s string) (cronus.Params, error) {
	s = strings.TrimSpace(s)
	if i == parK {
		k, err := strconv.Atoi(s)
		if err != nil {
			return par, errors.New("K: " + strconv.Quote(s) + " is not a whole number")
		}
		par.K = k
		return par, checkParam(par, i)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return par, errors.New(paramNames[i] + ": " + strconv.Quote(s) + " is not a number")
	}
	switch i {
	case parLambda:
		par.Lambda = v
	case parEpsilon:
		par.Epsilon = v
	case parSigma:
		par.Sigma = v
	}
	return par, checkParam(par, i)
}

func checkParam(par cronus.Params, i int) error {
	switch {
	case i == parLambda && !(par.Lambda >= 0):
		return errors.New("λ must be >= 0")
	case i == parK && par.K < 1:
		return errors.New("K must be at least 1")
	case i == parEpsilon && !(par.Epsilon > 0 && par.Epsilon < 1):
		return errors.New("ε must be in (0, 1)")
	case i == parSigma && !(par.Sigma > 0):
		return errors.New("σ must be > 0")
	}
	return nil
}

// inputRune reports whether r may be typed into a value.
func inputRune(r rune) bool {
	return r >= '0' && r <= '9' || r == '.' || r == 'e' || r == '-'
}
