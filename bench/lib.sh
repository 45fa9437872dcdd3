# Set-up shared by the bench scripts (sourced, not run): the working
# directory, Debian's python3 (not any other python3 on the PATH) with the
# packages a script needs, and /usr/bin/time.
dir=${BENCH_DIR:-/tmp/cronus-bench}
mkdir -p "$dir"
py=/usr/bin/python3

# need_pkg WHAT PACKAGE installs Debian's PACKAGE (as root), or says what
# is missing and how to get it, and stops.
need_pkg() {
  if [ "$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; then
    return
  fi
  echo "bench: $1 is missing; install Debian's $2 (apt-get install $2, as root)" >&2
  exit 1
}

# need_py MODULE PACKAGE installs Debian's PACKAGE when MODULE is missing.
need_py() {
  $py -c "import $1" 2>/dev/null || need_pkg "$py's module $1" "$2"
}

need_time() {
  [ -x /usr/bin/time ] || need_pkg /usr/bin/time time
}

# need_count SCRIPT WHAT VALUE [LEAST] stops, with the script's usage line
# in the message, unless VALUE is a whole number of at least LEAST (1).
need_count() {
  case "$3" in
    ''|*[!0-9]*) ;;
    *) [ "$((10#$3))" -ge "${4:-1}" ] && return ;;
  esac
  echo "usage: $1 (${2} must be a whole number of at least ${4:-1}, not '$3')" >&2
  exit 2
}

# make_folds DIR writes the five LETOR folds of MQ2008, DIR/f{1..5}-{train,
# vali,test}.txt, rebuilt from the built-in Fold1 by bench/folds.py, unless
# they are there (folds.py writes f5-test.txt last).
make_folds() {
  [ -f "$1/f5-test.txt" ] && return
  for s in train vali test; do gzip -dc "data/builtin/mq2008/$s.txt.gz" > "$1/mq2008-$s.txt"; done
  $py bench/folds.py "$1/mq2008-train.txt" "$1/mq2008-vali.txt" "$1/mq2008-test.txt" "$1"
}

# given FLAG: whether CASCADE_ARGS's words (extra, set by cascade_args)
# hold FLAG.
given() { [[ " ${extra[*]} " == *" $1 "* ]]; }

# cascade_args ARRAY [REL] sets extra to CASCADE_ARGS's words and appends
# to the array named ARRAY the bench's exit rule (--rule top-m --top-m 5)
# and relevance threshold (--relevant REL, default 1), each unless
# CASCADE_ARGS sets it (cronus refuses a flag given twice, and --top-m
# with --rule global), then those words.
cascade_args() {
  local -n _ca_to=$1
  extra=(${CASCADE_ARGS:-})
  given --rule || _ca_to+=(--rule top-m)
  given --rule || given --top-m || _ca_to+=(--top-m 5)
  given --relevant || _ca_to+=(--relevant "${2:-1}")
  _ca_to+=("${extra[@]}")
}

# need_folds SCRIPT stops, naming the first file missing, unless
# bench/cascade-folds.sh has made each fold's model and files in dir.
need_folds() {
  local f d x
  for f in 1 2 3 4 5; do
    d=$dir/cascade-mq2008-fold$f
    for x in model.json "f$f-train.txt" "f$f-vali.txt" "f$f-test.txt"; do
      [ -f "$d/$x" ] || { echo "$1: no $d/$x: run bench/cascade-folds.sh with this BENCH_DIR first" >&2; exit 1; }
    done
  done
}
